package dev.seqgen.jmh.bulk;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.jdbc.JdbcSequenceStore;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The id kinds of the bulk-insert benchmark, selected by a JMH {@code @Param} as Caffeine's benchmarks select
 * a {@code CacheType}: each is an entity class with the same {@link Payload} columns and its own id.
 */
public enum IdKind {

    /**
     * seqgen ASYNC_BATCH through {@code @SeqgenGenerator}, blocks of 1000 configured for the sequence, from a
     * registry given to Hibernate in {@code seqgen.hibernate.registry} over a {@link JdbcSequenceStore} with a dedicated connection (as the
     * Spring Boot starter does).
     */
    SEQGEN_ASYNC_BATCH(SeqgenOrderLine.class, SeqgenOrderLine::new) {
        @Override
        AutoCloseable configure(DataSource dataSource, String suffix, Map<String, Object> settings) {
            JdbcSequenceStore store = JdbcSequenceStore.builder(dataSource).table("seqgen_bench_" + suffix)
                    .dedicatedConnection(true).build();
            SequenceRegistry registry;
            try {
                registry = SequenceRegistry.builder(store).sequence("bulk_seqgen",
                        SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(1000).build()).build();
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
            settings.put(SeqgenHibernate.REGISTRY, registry);
            settings.put(SeqgenHibernate.REGISTRY_REQUIRED, "true");
            return () -> {
                try {
                    registry.close();
                } finally {
                    store.close();
                    // IF EXISTS: Hibernate's create-drop drops it too, seqgen's table being part of its schema.
                    Fixture.execute(dataSource, "DROP TABLE IF EXISTS " + store.table());
                }
            };
        }
    },

    /** {@code GenerationType.IDENTITY}: the database assigns the id on insert. */
    IDENTITY(IdentityOrderLine.class, IdentityOrderLine::new),

    /** {@code GenerationType.SEQUENCE}, allocation size 50: Hibernate's pooled optimizer over a sequence. */
    SEQUENCE_POOLED(PooledSequenceOrderLine.class, PooledSequenceOrderLine::new),

    /** {@code GenerationType.UUID}: a random UUID made in the JVM. */
    UUID(UuidOrderLine.class, UuidOrderLine::new);

    final Class<? extends Payload> entityClass;
    private final Supplier<? extends Payload> constructor;

    IdKind(Class<? extends Payload> entityClass, Supplier<? extends Payload> constructor) {
        this.entityClass = entityClass;
        this.constructor = constructor;
    }

    /** Returns a new, transient entity of this kind. */
    Payload newEntity() {
        return constructor.get();
    }

    /**
     * Adds what this kind needs to the Hibernate settings before the session factory is built.
     *
     * @param dataSource the pool Hibernate uses
     * @param suffix what makes this trial's table names unique
     * @param settings the Hibernate settings to add to
     * @return what to close after the session factory
     */
    AutoCloseable configure(DataSource dataSource, String suffix, Map<String, Object> settings) {
        return () -> {
        };
    }
}
