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
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * seqgen's hooks into Hibernate's bootstrap, both found with {@link ServiceLoader} from seqgen-core's
 * {@code META-INF/services}, so applications do nothing: as a {@link ServiceContributor} it refuses a Hibernate ORM
 * seqgen does not run on and registers {@link SeqgenRegistryService}, the service the generators find while Hibernate
 * reads the mappings; as an {@link Integrator} it hands that service the session factory once it is built. The two
 * are one class because they are one job, plugging seqgen into a Hibernate bootstrap: the service the contributor
 * registers is the one the integrator starts and stops. A bootstrap that bypasses service loading calls
 * {@code new SeqgenIntegrator().contribute(builder)} on its {@link StandardServiceRegistryBuilder} (and applies the
 * integrator as it applies its own). The start-up I/O it triggers: docs/design.md, "Hibernate start-up path".
 *
 * <p>{@link #contribute}, the first seqgen code Hibernate calls, refuses a Hibernate ORM release before 7.1 with a
 * message naming seqgen, the version and what to do (README, "Supported versions"); a version string it cannot read
 * (a snapshot) is let through.
 */
public final class SeqgenIntegrator implements Integrator, ServiceContributor {

    /** The first Hibernate ORM release seqgen's generators run on. */
    static final int MIN_MAJOR = 7;
    static final int MIN_MINOR = 1;

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** Creates the integrator; called by {@link ServiceLoader}, once as each of its two services. */
    public SeqgenIntegrator() {
    }

    /**
     * Registers seqgen's service, after checking that seqgen's generators run on the Hibernate ORM found. The
     * service is created only when a seqgen generator (or this integrator) asks for it.
     *
     * @param serviceRegistryBuilder the registry Hibernate is building
     * @throws SeqgenMappingException if the Hibernate ORM on the class path is older than seqgen supports; the
     *     message names the version found and what to do
     */
    @Override
    public void contribute(StandardServiceRegistryBuilder serviceRegistryBuilder) {
        requireSupported();
        serviceRegistryBuilder.addInitiator(Initiator.INSTANCE);
    }

    /**
     * Hands the session factory to seqgen's service: its observer starts the sequences once the factory is built
     * and gives back their unused values when it closes, and the service gets the factory's event listeners, to
     * watch flushes once a SYNC number reserves at flush (each flush then reserves the SYNC numbers it needs
     * before its first statement).
     *
     * @param metadata the mappings
     * @param bootstrapContext the bootstrap
     * @param sessionFactory the session factory being built
     */
    @Override
    public void integrate(Metadata metadata, BootstrapContext bootstrapContext,
            SessionFactoryImplementor sessionFactory) {
        sessionFactory.addObserver(new Observer());
        SeqgenRegistryService service = service(sessionFactory);
        if (service != null) {
            service.listenTo(sessionFactory.getServiceRegistry().requireService(EventListenerRegistry.class));
        }
    }

    /**
     * Refuses the Hibernate ORM on the class path if seqgen's generators do not run on it.
     *
     * @throws SeqgenMappingException naming the version found and the supported range
     */
    static void requireSupported() {
        requireSupported(Version.getVersionString());
    }

    /**
     * Refuses the given Hibernate ORM version if seqgen's generators do not run on it.
     *
     * @param version a version as {@link Version#getVersionString()} gives it, such as {@code 7.4.1.Final}
     * @throws SeqgenMappingException naming the version and the supported range
     */
    static void requireSupported(@Nullable String version) {
        if (version == null) {
            return;
        }
        Matcher matcher = MAJOR_MINOR.matcher(version);
        if (!matcher.find()) {
            return;
        }
        int major = Integer.parseInt(matcher.group(1));
        int minor = Integer.parseInt(matcher.group(2));
        if (major > MIN_MAJOR || (major == MIN_MAJOR && minor >= MIN_MINOR)) {
            return;
        }
        throw new SeqgenMappingException("seqgen's Hibernate generators (dev.seqgen:seqgen-core)",
                "Hibernate ORM " + version + " is on the class path; seqgen's generators need Hibernate ORM "
                        + MIN_MAJOR + "." + MIN_MINOR + " or later (Spring Boot 4.0.0 and later bring it)",
                "Upgrade Hibernate ORM to " + MIN_MAJOR + "." + MIN_MINOR + " or later (with Spring Boot 4, remove a"
                        + " hibernate.version property that pins an older release)", null);
    }

    private static @Nullable SeqgenRegistryService service(SessionFactory factory) {
        try {
            return ((SessionFactoryImplementor) factory).getServiceRegistry().getService(SeqgenRegistryService.class);
        } catch (UnknownServiceException e) {
            return null; // a bootstrap without seqgen's service contributor: no seqgen generator either
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
            // Hibernate's checks of its own pooled optimizers, made for seqgen's drop-in: entered only by a session
            // factory that has one, so an id of seqgen's own generator never does.
            built.getMappingMetamodel().forEachEntityDescriptor(persister -> {
                if (persister.getGenerator() instanceof SequenceStyleGenerator sequenceStyle
                        && sequenceStyle.getOptimizer() instanceof SeqgenPooledOptimizer optimizer) {
                    PooledOptimizerChecks.check(built, persister.getEntityName(), sequenceStyle.getDatabaseStructure(),
                            optimizer);
                }
            });
            SeqgenRegistryService service = service(factory);
            if (service != null) {
                service.startAtBoot();
                service.warmUpConfiguredSeriesAtBoot(built);
            }
        }

        @Override
        public void sessionFactoryClosing(SessionFactory factory) {
            // Before Hibernate drops the schema (create-drop), which may include seqgen's table.
            SeqgenRegistryService service = service(factory);
            if (service != null) {
                service.stop();
            }
        }
    }
}
