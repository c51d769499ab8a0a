package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import org.hibernate.dialect.CockroachDialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.HSQLDialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.OracleDialect;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.dialect.SpannerDialect;
import org.junit.jupiter.api.Test;

/** The platform a store is told the entities are on, read from Hibernate's dialect alone. */
class EntityDatabaseTest {

    @Test
    void eachDialectNamesItsDatabaseAsSeqgensSchemaScriptsDo() {
        assertThat(EntityDatabase.platform(new SpannerDialect())).isEqualTo("spanner");
        assertThat(EntityDatabase.platform(new SpannerPostgreSQLDialect())).isEqualTo("spanner-postgresql");
        assertThat(EntityDatabase.platform(new PostgreSQLDialect())).isEqualTo("postgresql");
        assertThat(EntityDatabase.platform(new CockroachDialect())).isEqualTo("postgresql");
        assertThat(EntityDatabase.platform(new MariaDBDialect())).isEqualTo("mariadb");
        assertThat(EntityDatabase.platform(new MySQLDialect())).isEqualTo("mariadb");
        assertThat(EntityDatabase.platform(new H2Dialect())).isEqualTo("h2");
        assertThat(EntityDatabase.platform(new HSQLDialect())).isEqualTo("hsqldb");
        assertThat(EntityDatabase.platform(new OracleDialect())).isEqualTo("oracle");
    }

    /** Hibernate's PostgreSQL-dialect Spanner dialect, by name: Hibernate 7.1 has none. */
    private static final class SpannerPostgreSQLDialect extends PostgreSQLDialect {
    }
}
