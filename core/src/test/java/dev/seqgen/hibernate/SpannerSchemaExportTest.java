package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.testing.LogRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.logging.Level;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.SpannerDialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * On Cloud Spanner seqgen's table stays out of Hibernate's schema (seqgen's store creates it, or migrations do);
 * other dialects keep it in, with the store's own statements. Scripts only, built offline (no database, as Spring
 * AOT builds the metadata).
 */
class SpannerSchemaExportTest {

    private static final String TABLE = "seqgen_export_probe";

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void theSpannerDialectsSchemaLeavesSeqgensTableOutAndSaysWhy(@TempDir Path scripts) throws IOException {
        String created = createScript(SpannerDialect.class, scripts.resolve("spanner.sql"));
        assertThat(created).contains("async_ticket").doesNotContain(TABLE);
        assertThat(logs.messages(Level.INFO)).anySatisfy(message -> assertThat(message)
                .contains("table " + TABLE + " is left out of Hibernate's schema")
                .contains("seqgen.schema.initialize=always"));
    }

    @Test
    void otherDialectsKeepItInTheSchema(@TempDir Path scripts) throws IOException {
        String created = createScript(H2Dialect.class, scripts.resolve("h2.sql"));
        assertThat(created).contains("async_ticket").contains(JdbcDialect.H2.createTablesSql(TABLE).stream()
                .map(statement -> statement.toLowerCase(Locale.ROOT)).toList());
        assertThat(logs.messages(Level.INFO)).noneSatisfy(message -> assertThat(message).contains("left out"));
    }

    private static String createScript(Class<? extends Dialect> dialect, Path target) throws IOException {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting(AvailableSettings.DIALECT, dialect.getName())
                .applySetting(AvailableSettings.ALLOW_METADATA_ON_BOOT, "false")
                .applySetting(SeqgenHibernate.TABLE, TABLE)
                .applySetting(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_ACTION, "create")
                .applySetting(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_CREATE_TARGET, target.toString())
                .build();
        try {
            new MetadataSources(registry).addAnnotatedClass(AsyncTicket.class).buildMetadata()
                    .buildSessionFactory().close();
        } finally {
            StandardServiceRegistryBuilder.destroy(registry);
        }
        return Files.readString(target).toLowerCase(Locale.ROOT);
    }
}
