package dev.seqgen.hibernate;

import org.hibernate.dialect.CockroachDialect;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.HSQLDialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;

import java.util.Locale;

/**
 * The database of the application's entities as Hibernate's dialect tells it, named as seqgen's SPI names databases
 * (the platforms of {@code SequenceStore.readsApplicationTables}). No I/O: the dialect is all it reads.
 */
final class EntityDatabase {

    private EntityDatabase() {
    }

    /**
     * Whether the dialect is one of Hibernate's Cloud Spanner dialects ({@code SpannerDialect},
     * {@code SpannerPostgreSQLDialect}), told by name: not every Hibernate 7 seqgen runs on has both classes.
     */
    static boolean isSpanner(Dialect dialect) {
        return dialect.getClass().getSimpleName().startsWith("Spanner");
    }

    /**
     * The platform of the dialect's database: {@code spanner-postgresql} and {@code spanner} first (Hibernate's
     * PostgreSQL-dialect Spanner dialect extends its PostgreSQL one), then {@code postgresql} (CockroachDB too, as
     * seqgen's JDBC store serves it), {@code mariadb} (MySQL too), {@code h2}, {@code hsqldb}; any other dialect by
     * its class name, lowercase, without {@code Dialect}.
     */
    static String platform(Dialect dialect) {
        String name = dialect.getClass().getSimpleName();
        if (isSpanner(dialect)) {
            return name.contains("PostgreSQL") ? "spanner-postgresql" : "spanner";
        }
        if (dialect instanceof PostgreSQLDialect || dialect instanceof CockroachDialect) {
            return "postgresql";
        }
        if (dialect instanceof MySQLDialect) {
            return "mariadb";
        }
        if (dialect instanceof H2Dialect) {
            return "h2";
        }
        if (dialect instanceof HSQLDialect) {
            return "hsqldb";
        }
        return name.replaceFirst("Dialect$", "").toLowerCase(Locale.ROOT);
    }
}
