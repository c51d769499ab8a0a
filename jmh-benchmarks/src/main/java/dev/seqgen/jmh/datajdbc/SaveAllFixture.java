package dev.seqgen.jmh.datajdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jmh.bulk.BulkDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.jdbc.core.dialect.JdbcH2Dialect;
import org.springframework.data.jdbc.core.dialect.JdbcPostgresDialect;
import org.springframework.data.jdbc.repository.config.AbstractJdbcConfiguration;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcOperations;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A Spring Data JDBC application for one id source: a context with Spring Data JDBC's configuration, seqgen's
 * registry over a sequence table of the trial's own and seqgen's Spring Data JDBC auto-configuration, over a pool
 * whose sequence round trips are counted and slowed ({@link SequenceRoundTrips}); the aggregate tables and Spring
 * Data's database sequence created afresh.
 */
public final class SaveAllFixture implements AutoCloseable {

    /** Where the ids come from. */
    public enum IdSource {
        /** {@code @Id @SeqgenValue}: seqgen's default strategy (async-batch, blocks of 1,000). */
        SEQGEN,
        /** {@code @Id @Sequence}: Spring Data's database sequence, one call per aggregate. */
        SPRING_DATA_SEQUENCE
    }

    /** Quoted: Spring Data quotes the name of an {@code @Sequence} as it is written, in lower case. */
    private static final String SPRING_SEQUENCE = "\"save_all_sequence_aggregate_seq\"";

    private final IdSource idSource;
    private final HikariDataSource pool;
    private final SequenceRoundTrips roundTrips;
    private final SequenceRegistry registry;
    private final AnnotationConfigApplicationContext context;
    private final JdbcAggregateTemplate template;
    private final TransactionTemplate transactions;
    private final String table;
    private final String sequenceTable;

    /**
     * Creates the tables and starts the application.
     *
     * @param database the database
     * @param idSource where the ids come from
     * @param latencyNanos the latency added to each sequence round trip
     */
    public SaveAllFixture(BulkDatabase database, IdSource idSource, long latencyNanos) {
        this.idSource = idSource;
        String suffix = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url(suffix));
        config.setUsername(database.user());
        config.setPassword(database.password());
        config.setMaximumPoolSize(4);
        pool = new HikariDataSource(config);
        table = idSource == IdSource.SEQGEN ? "save_all_seqgen_aggregate" : "save_all_sequence_aggregate";
        sequenceTable = "seqgen_save_all_" + suffix;
        execute("DROP TABLE IF EXISTS " + table);
        execute("CREATE TABLE " + table + " (id BIGINT NOT NULL PRIMARY KEY, payload VARCHAR(64), amount BIGINT)");
        if (idSource == IdSource.SPRING_DATA_SEQUENCE) {
            execute("DROP SEQUENCE IF EXISTS " + SPRING_SEQUENCE);
            execute("CREATE SEQUENCE " + SPRING_SEQUENCE);
        }
        roundTrips = new SequenceRoundTrips(pool, sequenceTable, latencyNanos);
        registry = SequenceRegistry.builder(JdbcSequenceStore.builder(roundTrips).table(sequenceTable)
                .createTable(true).build()).build();
        context = new AnnotationConfigApplicationContext();
        context.registerBean(DataSource.class, () -> roundTrips);
        context.registerBean(SequenceRegistry.class, () -> registry);
        context.register(JdbcConfiguration.class);
        context.refresh();
        template = context.getBean(JdbcAggregateTemplate.class);
        transactions = new TransactionTemplate(context.getBean(DataSourceTransactionManager.class));
    }

    /**
     * Saves {@code count} new aggregates with one {@code saveAll}, in one transaction.
     *
     * @param count how many
     * @return the id of the last, to defeat dead-code elimination
     */
    public long saveAll(int count) {
        List<Payload> aggregates = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String payload = UUID.randomUUID().toString();
            aggregates.add(idSource == IdSource.SEQGEN ? new SaveAllSeqgenAggregate(payload, i)
                    : new SaveAllSequenceAggregate(payload, i));
        }
        List<Payload> saved = transactions.execute(status -> template.saveAll(aggregates));
        return saved.get(saved.size() - 1).getId();
    }

    /** @return the sequence round trips so far */
    public long roundTrips() {
        return roundTrips.count();
    }

    /**
     * Returns the rows of the aggregate table and how many distinct ids they hold.
     *
     * @return {rows, distinct ids}
     */
    public long[] rowsAndDistinctIds() {
        JdbcTemplate jdbc = new JdbcTemplate(pool);
        return new long[] {jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class),
            jdbc.queryForObject("SELECT COUNT(DISTINCT id) FROM " + table, Long.class)};
    }

    /** Empties the aggregate table (the sequences go on). */
    public void emptyTable() {
        execute("DELETE FROM " + table);
    }

    private void execute(String sql) {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }

    @Override
    public void close() {
        context.close();
        registry.close();
        execute("DROP TABLE IF EXISTS " + table);
        execute("DROP TABLE IF EXISTS " + sequenceTable);
        if (idSource == IdSource.SPRING_DATA_SEQUENCE) {
            execute("DROP SEQUENCE IF EXISTS " + SPRING_SEQUENCE);
        }
        pool.close();
    }

    /** Spring Data JDBC over the context's data source, with seqgen's Spring Data JDBC support. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(SeqgenDataJdbcAutoConfiguration.class)
    static class JdbcConfiguration extends AbstractJdbcConfiguration {

        @Bean
        NamedParameterJdbcTemplate namedParameterJdbcTemplate(DataSource dataSource) {
            return new NamedParameterJdbcTemplate(dataSource);
        }

        @Bean
        DataSourceTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        /**
         * The dialect of the database's URL: Spring Data's own resolution reads {@code spring.factories}, of which
         * the benchmark jar keeps one.
         */
        @Override
        @Bean
        public JdbcDialect jdbcDialect(NamedParameterJdbcOperations operations) {
            String url = operations.getJdbcOperations()
                    .execute((ConnectionCallback<String>) connection -> connection.getMetaData().getURL());
            if (url.startsWith("jdbc:h2:")) {
                return JdbcH2Dialect.INSTANCE;
            }
            if (url.startsWith("jdbc:postgresql:")) {
                return JdbcPostgresDialect.INSTANCE;
            }
            throw new IllegalStateException("database: h2 or postgres, not " + url);
        }

        @Override
        protected Set<Class<?>> getInitialEntitySet() {
            return Set.of(SaveAllSeqgenAggregate.class, SaveAllSequenceAggregate.class);
        }
    }
}
