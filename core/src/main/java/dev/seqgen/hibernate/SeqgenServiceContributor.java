package dev.seqgen.hibernate;

import org.hibernate.Version;
import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.service.spi.ServiceContributor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Registers the service through which {@link SeqgenIdGenerator}s get their registry. Hibernate finds it
 * with {@link ServiceLoader} ({@code META-INF/services/org.hibernate.service.spi.ServiceContributor}
 * in seqgen-core), so applications do nothing. The service is created only when a seqgen generator asks for
 * it, so session factories without seqgen ids pay nothing. A bootstrap that bypasses service loading can call
 * {@code new SeqgenServiceContributor().contribute(builder)} on its {@link StandardServiceRegistryBuilder}.
 *
 * <p>It also holds the check of the Hibernate ORM version ({@code requireSupported}), because this is
 * where the check runs: the first seqgen code Hibernate calls, when it builds its service registry and before any
 * mapping is read. A version known not to work is refused there with a message that names seqgen, the version
 * found and what to do, instead of failing later, deep in Hibernate's binding of the generators, with an error
 * that names neither seqgen nor the attribute. seqgen's generators are written against the generator API of
 * Hibernate 7.1 and later ({@code GeneratorCreationContext}, {@code AnnotationBasedGenerator.initialize(annotation,
 * context)}); every 7.1 to 7.4 release that a Spring Boot 4.0.x or 4.1.x release brings works (README, "Supported
 * versions", lists those CI runs). A version string the check cannot read (a snapshot built from source) is let
 * through.
 */
public final class SeqgenServiceContributor implements ServiceContributor {

    /** The first Hibernate ORM release seqgen's generators run on. */
    static final int MIN_MAJOR = 7;
    static final int MIN_MINOR = 1;

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** Creates the contributor; called by {@link ServiceLoader}. */
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
        requireSupported();
        serviceRegistryBuilder.addInitiator(Initiator.INSTANCE);
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
