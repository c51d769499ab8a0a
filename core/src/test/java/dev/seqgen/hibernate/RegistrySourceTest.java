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

/** What database the entities live on, as a store is told it: read from Hibernate's dialect alone. */
class RegistrySourceTest {

    @Test
    void eachDialectNamesItsDatabaseAsSeqgensSchemaScriptsDo() {
        assertThat(RegistrySource.platform(new SpannerDialect())).isEqualTo("spanner");
        assertThat(RegistrySource.platform(new SpannerPostgreSQLDialect())).isEqualTo("spanner-postgresql");
        assertThat(RegistrySource.platform(new PostgreSQLDialect())).isEqualTo("postgresql");
        assertThat(RegistrySource.platform(new CockroachDialect())).isEqualTo("postgresql");
        assertThat(RegistrySource.platform(new MariaDBDialect())).isEqualTo("mariadb");
        assertThat(RegistrySource.platform(new MySQLDialect())).isEqualTo("mariadb");
        assertThat(RegistrySource.platform(new H2Dialect())).isEqualTo("h2");
        assertThat(RegistrySource.platform(new HSQLDialect())).isEqualTo("hsqldb");
        assertThat(RegistrySource.platform(new OracleDialect())).isEqualTo("oracle");
    }

    /** Hibernate's PostgreSQL-dialect Spanner dialect, by name: Hibernate 7.1 has none. */
    private static final class SpannerPostgreSQLDialect extends PostgreSQLDialect {
    }
}
