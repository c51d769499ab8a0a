package dev.seqgen.jmh;

import dev.seqgen.KeyOrder;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceStats;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenPooledOptimizer;
import dev.seqgen.spi.SequenceStore;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.hibernate.id.enhanced.OptimizerDescriptor;
import org.hibernate.id.enhanced.StandardOptimizerDescriptor;

/**
 * The competitors, selected by a JMH {@code @Param} as Caffeine's benchmarks select a {@code CacheType}.
 * seqgen's strategies and Hibernate's optimizers take their blocks from the same {@link SequenceStore}.
 */
public enum IdSourceType {

    /** No id at all (always 0): the row of the application's work alone in benchmarks that time work and an id. */
    NONE {
        @Override
        public IdSource create(Config config) {
            return () -> 0;
        }
    },

    /** A bare shared {@code AtomicLong.getAndIncrement()}: the limit for any shared counter in one JVM. */
    ATOMIC_LONG {
        @Override
        public IdSource create(Config config) {
            AtomicLong counter = new AtomicLong(1);
            return counter::getAndIncrement;
        }
    },

    /**
     * {@link #ATOMIC_LONG} with each value mapped as {@code key-order bit-reversed} maps it: the limit for bit-reversed
     * keys, and, beside {@link #ATOMIC_LONG}, what the reversal alone costs on the JVM that runs the benchmark.
     */
    ATOMIC_LONG_BIT_REVERSED {
        @Override
        public IdSource create(Config config) {
            AtomicLong counter = new AtomicLong(1);
            return () -> KeyOrder.BIT_REVERSED.key(counter.getAndIncrement());
        }
    },

    /** seqgen ASYNC: one store reservation per value. */
    SEQGEN_ASYNC {
        @Override
        public IdSource create(Config config) {
            return seqgen(Strategy.ASYNC, config);
        }
    },

    /** seqgen BATCH: the caller that finds the block empty reserves the next one while the others wait. */
    SEQGEN_BATCH {
        @Override
        public IdSource create(Config config) {
            return seqgen(Strategy.BATCH, config);
        }
    },

    /** seqgen ASYNC_BATCH: BATCH plus a background refill from the low watermark on. */
    SEQGEN_ASYNC_BATCH {
        @Override
        public IdSource create(Config config) {
            return seqgen(Strategy.ASYNC_BATCH, config);
        }
    },

    /**
     * seqgen ASYNC_BATCH with {@code key-order bit-reversed}: the same blocks, each value handed out with its 63 low
     * bits reversed (hotspot-free primary keys); its cost over {@link #SEQGEN_ASYNC_BATCH} is that mapping.
     */
    SEQGEN_ASYNC_BATCH_BIT_REVERSED {
        @Override
        public IdSource create(Config config) {
            return seqgen(Strategy.ASYNC_BATCH, KeyOrder.BIT_REVERSED, config);
        }
    },

    /** Hibernate's {@code PooledOptimizer}, the default for sequences with an allocation size above 1. */
    HIBERNATE_POOLED {
        @Override
        public IdSource create(Config config) {
            return hibernate(StandardOptimizerDescriptor.POOLED, config);
        }
    },

    /** Hibernate's {@code PooledLoOptimizer}. */
    HIBERNATE_POOLED_LO {
        @Override
        public IdSource create(Config config) {
            return hibernate(StandardOptimizerDescriptor.POOLED_LO, config);
        }
    },

    /** Hibernate's {@code PooledLoThreadLocalOptimizer}: a block per thread. */
    HIBERNATE_POOLED_LO_THREAD_LOCAL {
        @Override
        public IdSource create(Config config) {
            return hibernate(StandardOptimizerDescriptor.POOLED_LOTL, config);
        }
    },

    /**
     * seqgen's {@code SeqgenPooledOptimizer}, the lock-free drop-in for {@code pooled} that fetches the next
     * block ahead on the thread that reaches a quarter of the block left.
     */
    SEQGEN_POOLED_OPTIMIZER {
        @Override
        public IdSource create(Config config) {
            return hibernate(StandardOptimizerDescriptor.fromExternalName(SeqgenPooledOptimizer.class.getName()),
                    config);
        }
    },

    /**
     * {@code UUID.randomUUID()}, folded to a long so that every competitor returns the same type. The
     * {@code UUID} object itself may then be scalar-replaced by the JIT; the bytes {@code SecureRandom} fills
     * are not.
     */
    UUID {
        @Override
        public IdSource create(Config config) {
            return () -> {
                UUID uuid = java.util.UUID.randomUUID();
                return uuid.getMostSignificantBits() ^ uuid.getLeastSignificantBits();
            };
        }
    };

    /** The name of the store row every competitor of one benchmark uses. */
    static final String SEQUENCE = "bench";

    /**
     * What a competitor is built over.
     *
     * @param store the store seqgen and Hibernate take their blocks from
     * @param blockSize seqgen's block size
     * @param lowWatermark seqgen's low watermark, or -1 for its default (a quarter of the block)
     * @param hibernateIncrementSize the allocation size of Hibernate's optimizers
     */
    public record Config(SequenceStore store, int blockSize, int lowWatermark, int hibernateIncrementSize) {
    }

    /**
     * Builds the competitor.
     *
     * @param config what it is built over
     * @return a source ready to use; close it when done
     */
    public abstract IdSource create(Config config);

    private static IdSource seqgen(Strategy strategy, Config config) {
        return seqgen(strategy, KeyOrder.SEQUENTIAL, config);
    }

    private static IdSource seqgen(Strategy strategy, KeyOrder keyOrder, Config config) {
        // Everything else at seqgen's defaults: ASYNC_BATCH adaptive, BATCH and ASYNC not.
        SequenceSettings.Builder settings = SequenceSettings.builder().strategy(strategy).keyOrder(keyOrder)
                .blockSize(config.blockSize());
        if (config.lowWatermark() >= 0) {
            settings.lowWatermark(config.lowWatermark());
        }
        SequenceRegistry registry = SequenceRegistry.builder(config.store()).defaults(settings.build()).build();
        Sequence sequence = registry.sequence(SEQUENCE);
        return new IdSource() {
            @Override
            public long next() {
                return sequence.next();
            }

            @Override
            public String activity() {
                SequenceStats stats = sequence.stats();
                String activity = stats.issued() + " values, " + stats.reservations() + " reservations, caller waits: "
                        + stats.waits();
                return strategy != Strategy.ASYNC_BATCH ? activity : activity + ", late refills: "
                        + stats.lateRefills() + ", block size: " + stats.blockSize() + ", refill point: "
                        + stats.refillPoint();
            }

            @Override
            public void close() {
                registry.close();
            }
        };
    }

    private static IdSource hibernate(OptimizerDescriptor optimizer, Config config) {
        SequenceStore store = config.store();
        int increment = config.hibernateIncrementSize();
        store.createSequence(SEQUENCE, 1);
        return new HibernateOptimizerSource(optimizer, increment,
                () -> store.reserve(SEQUENCE, increment, SequenceSettings.LARGEST_MAX_VALUE).first());
    }
}
