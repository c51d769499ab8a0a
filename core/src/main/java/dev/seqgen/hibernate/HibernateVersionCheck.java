package dev.seqgen.hibernate;

import org.hibernate.Version;
import org.jspecify.annotations.Nullable;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Hibernate ORM versions seqgen's generators run on, checked when Hibernate builds its service registry
 * ({@link SeqgenServiceContributor}), before any mapping is read: a version known not to work is refused there with
 * a message that names seqgen, the version found and what to do, instead of failing later, deep in Hibernate's
 * binding of the generators, with an error that names neither seqgen nor the attribute.
 *
 * <p>seqgen's generators are written against the generator API of Hibernate 7.1 and later ({@code
 * GeneratorCreationContext}, {@code AnnotationBasedGenerator.initialize(annotation, context)}); every 7.1 to 7.4
 * release that a Spring Boot 4.0.x or 4.1.x release brings works (README, "Supported versions", lists those CI
 * runs). A version string this class cannot read (a snapshot built from source) is let through.
 */
final class HibernateVersionCheck {

    /** The first Hibernate ORM release seqgen's generators run on. */
    static final int MIN_MAJOR = 7;
    static final int MIN_MINOR = 1;

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    private HibernateVersionCheck() {
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
}
