package dev.seqgen.hibernate;

import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.hibernate.Version;
import org.hibernate.boot.Metadata;
import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.boot.spi.BootstrapContext;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.id.enhanced.SequenceStyleGenerator;
import org.hibernate.integrator.spi.Integrator;
import org.hibernate.service.UnknownServiceException;
import org.hibernate.service.spi.ServiceContributor;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * seqgen's hooks into Hibernate's bootstrap, found by {@link ServiceLoader} (or called by a bootstrap without it):
 * registers seqgen's service, refusing a Hibernate ORM before 7.1, and hands it the built session factory.
 */
public final class SeqgenIntegrator implements Integrator, ServiceContributor {

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** Registers seqgen's service; throws SeqgenMappingException if the Hibernate ORM found is too old. */
    @Override
    public void contribute(StandardServiceRegistryBuilder serviceRegistryBuilder) {
        requireSupported(Version.getVersionString());
        serviceRegistryBuilder.addInitiator(Initiator.INSTANCE);
    }

    /** Hands the built session factory to seqgen's service, to start, stop and watch its flushes. */
    @Override
    public void integrate(Metadata metadata, BootstrapContext bootstrapContext,
            SessionFactoryImplementor sessionFactory) {
        sessionFactory.addObserver(new Observer());
        service(sessionFactory).ifPresent(service ->
                service.listenTo(sessionFactory.getServiceRegistry().requireService(EventListenerRegistry.class)));
    }

    /** Refuses a Hibernate ORM version ({@code 7.4.1.Final}) seqgen does not run on; lets an unreadable one by. */
    static void requireSupported(@Nullable String version) {
        Matcher matcher = MAJOR_MINOR.matcher(String.valueOf(version));
        if (!matcher.find()) {
            return;
        }
        int major = Integer.parseInt(matcher.group(1));
        int minor = Integer.parseInt(matcher.group(2));
        if (major < 7 || (major == 7 && minor < 1)) {
            throw new SeqgenMappingException("seqgen's Hibernate generators (dev.seqgen:seqgen-core)",
                    "Hibernate ORM " + version + " is on the class path; seqgen's generators need Hibernate ORM 7.1"
                            + " or later (Spring Boot 4.0.0 and later bring it)", "Upgrade Hibernate ORM to 7.1 or"
                            + " later (with Spring Boot 4, remove a hibernate.version property that pins an older"
                            + " release)", null);
        }
    }

    private static Optional<SeqgenRegistryService> service(SessionFactory factory) {
        try {
            return Optional.ofNullable(((SessionFactoryImplementor) factory).getServiceRegistry()
                    .getService(SeqgenRegistryService.class));
        } catch (UnknownServiceException e) {
            return Optional.empty(); // a bootstrap without seqgen's service contributor: no seqgen generator either
        }
    }

    private enum Initiator implements StandardServiceInitiator<SeqgenRegistryService> {
        INSTANCE;

        @Override
        public Class<SeqgenRegistryService> getServiceInitiated() {
            return SeqgenRegistryService.class;
        }

        @Override
        public SeqgenRegistryService initiateService(Map<String, Object> configurationValues,
                ServiceRegistryImplementor registry) {
            return new SeqgenRegistryService(configurationValues, registry);
        }
    }

    private static final class Observer implements SessionFactoryObserver {

        private static final long serialVersionUID = 1L;

        @Override
        public void sessionFactoryCreated(SessionFactory factory) {
            SessionFactoryImplementor built = (SessionFactoryImplementor) factory;
            // Hibernate's own checks of pooled optimizers, for seqgen's drop-in.
            built.getMappingMetamodel().forEachEntityDescriptor(persister -> {
                if (persister.getGenerator() instanceof SequenceStyleGenerator sequenceStyle
                        && sequenceStyle.getOptimizer() instanceof SeqgenPooledOptimizer optimizer) {
                    PooledOptimizerChecks.check(built, persister.getEntityName(), sequenceStyle.getDatabaseStructure(),
                            optimizer);
                }
            });
            service(factory).ifPresent(service -> service.startAtBoot(built));
        }

        @Override
        public void sessionFactoryClosing(SessionFactory factory) {
            // Before Hibernate drops the schema (create-drop), which may include seqgen's table.
            service(factory).ifPresent(SeqgenRegistryService::stop);
        }
    }
}
