package dev.seqgen.hibernate;

import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.hibernate.boot.Metadata;
import org.hibernate.boot.spi.BootstrapContext;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.integrator.spi.Integrator;
import org.hibernate.service.UnknownServiceException;
import org.jspecify.annotations.Nullable;

/**
 * Starts seqgen's sequences when a session factory has been built, and gives back their unused values when
 * it closes; watches its flushes, so that each reserves the SYNC numbers it needs before its first statement.
 * Hibernate finds it with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.hibernate.integrator.spi.Integrator} in seqgen-core); applications do nothing.
 *
 * <p>Generators do no database I/O while Hibernate reads the mappings; they register with seqgen's service,
 * and this integrator's observer does the I/O (building the registry if none was given, putting each sequence
 * row above the rows already in the entity tables) once the session factory exists, so that a broken
 * database or store still fails at start-up. With {@code hibernate.boot.allow_jdbc_metadata_access=false}
 * (offline metadata builds, Spring's AOT processing) it does nothing at start-up, and the first id does it.
 * Session factories without seqgen ids pay nothing but the flush and pre-insert listeners, which return at once
 * until a SYNC {@link SeqgenNumber} exists.
 */
public final class SeqgenIntegrator implements Integrator {

    /** Creates the integrator; called by {@link java.util.ServiceLoader}. */
    public SeqgenIntegrator() {
    }

    @Override
    public void integrate(Metadata metadata, BootstrapContext bootstrapContext,
            SessionFactoryImplementor sessionFactory) {
        sessionFactory.addObserver(new Observer());
        SeqgenRegistryService service = Observer.service(sessionFactory);
        if (service != null) {
            // Watches flushes so that each reserves its SYNC numbers before its first statement; idle until a SYNC
            // number generator registers.
            FlushReservationListener.register(
                    sessionFactory.getServiceRegistry().requireService(EventListenerRegistry.class), service);
        }
    }

    private static final class Observer implements SessionFactoryObserver {

        private static final long serialVersionUID = 1L;

        @Override
        public void sessionFactoryCreated(SessionFactory factory) {
            StartUpChecks.checkPooledOptimizers((SessionFactoryImplementor) factory);
            SeqgenRegistryService service = service(factory);
            if (service != null && service.jdbcAtBoot() && service.hasPending()) {
                service.start();
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

        private static @Nullable SeqgenRegistryService service(SessionFactory factory) {
            try {
                return ((SessionFactoryImplementor) factory).getServiceRegistry()
                        .getService(SeqgenRegistryService.class);
            } catch (UnknownServiceException e) {
                return null; // a bootstrap without seqgen's service contributor: no seqgen generator either
            }
        }
    }
}
