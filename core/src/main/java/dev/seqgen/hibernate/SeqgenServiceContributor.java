package dev.seqgen.hibernate;

import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.service.spi.ServiceContributor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import java.util.Map;

/**
 * Registers the service through which {@link SeqgenIdGenerator}s get their registry. Hibernate finds it
 * with {@link java.util.ServiceLoader} ({@code META-INF/services/org.hibernate.service.spi.ServiceContributor}
 * in seqgen-core), so applications do nothing. The service is created only when a seqgen generator asks for
 * it, so session factories without seqgen ids pay nothing. A bootstrap that bypasses service loading can call
 * {@code new SeqgenServiceContributor().contribute(builder)} on its {@link StandardServiceRegistryBuilder}.
 */
public final class SeqgenServiceContributor implements ServiceContributor {

    /** Creates the contributor; called by {@link java.util.ServiceLoader}. */
    public SeqgenServiceContributor() {
    }

    /**
     * Registers seqgen's service, after checking that seqgen's generators run on the Hibernate ORM found.
     *
     * @param serviceRegistryBuilder the registry Hibernate is building
     * @throws SeqgenMappingException if the Hibernate ORM on the class path is older than seqgen supports; the
     *     message names the version found and what to do
     */
    @Override
    public void contribute(StandardServiceRegistryBuilder serviceRegistryBuilder) {
        HibernateVersionCheck.requireSupported();
        serviceRegistryBuilder.addInitiator(Initiator.INSTANCE);
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
}
