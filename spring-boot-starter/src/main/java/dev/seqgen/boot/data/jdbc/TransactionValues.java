package dev.seqgen.boot.data.jdbc;

import dev.seqgen.KeyOrder;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceExhaustedException;

import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * SYNC values taken on the JDBC connection of the caller's transaction, unused ones given back before the commit; a
 * transaction resource used by one thread at a time: no lock. See docs/design.md#spring-data-jdbc-values.
 */
final class TransactionValues {

    private static final System.Logger LOG = System.getLogger(TransactionValues.class.getName());

    /** The largest increment taken at once for one transaction and sequence; they grow 1, 1, 2, 4, ... up to it. */
    static final int MAX_INCREMENT = 1024;

    private final DataSource dataSource;
    /** Per sequence, the values the thread's saveAll still expects to draw; an increment takes at least that many. */
    final ThreadLocal<Map<String, int[]>> expectedDraws = new ThreadLocal<>();

    TransactionValues(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @FunctionalInterface
    interface Call<T> {
        T run() throws Throwable;
    }

    /** Runs a call with the thread-local set to the value, then restores the one it had. */
    static <V, T> T withValue(ThreadLocal<V> local, V value, Call<T> call) throws Throwable {
        V outer = local.get();
        local.set(value);
        try {
            return call.run();
        } finally {
            if (outer == null) {
                local.remove();
            } else {
                local.set(outer);
            }
        }
    }

    /** The next value of a SYNC sequence in the current transaction; refused outside one. */
    long next(Sequence sequence, ValueProperty property) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new SeqgenAggregateException(property.where(), "the SYNC strategy takes the value in the caller's"
                    + " transaction, so that a rollback undoes it, and this save runs outside a transaction", "Save"
                    + " within a transaction (@Transactional, a TransactionTemplate, or a repository method, which"
                    + " opens its own)");
        }
        Blocks blocks = (Blocks) TransactionSynchronizationManager.getResource(this);
        if (blocks == null) {
            blocks = new Blocks();
            TransactionSynchronizationManager.bindResource(this, blocks);
            TransactionSynchronizationManager.registerSynchronization(blocks);
        }
        return blocks.next(sequence);
    }

    private <T> T onConnection(Function<Connection, T> work) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            return work.apply(connection);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /** The values of one transaction, per sequence name; gives the unused tails back before the commit. */
    private final class Blocks implements TransactionSynchronization {

        private final Map<String, Block> bySequence = new HashMap<>();

        long next(Sequence sequence) {
            Block block = bySequence.get(sequence.name());
            Map<String, int[]> draws = expectedDraws.get();
            int[] expected = draws == null ? null : draws.get(sequence.name());
            if (block == null || block.next == block.values.length) {
                int taken = block == null ? 0 : block.taken;
                int count = Math.max(Math.max(1, Math.min(taken, MAX_INCREMENT)), expected == null ? 0 : expected[0]);
                long[] values;
                try {
                    values = onConnection(connection -> sequence.nextValuesInTransaction(connection, count));
                } catch (SequenceExhaustedException e) {
                    if (count == 1) {
                        throw e;
                    }
                    // fewer than the increment are left below the maximum: take them one at a time
                    values = onConnection(connection -> sequence.nextValuesInTransaction(connection, 1));
                }
                block = new Block(sequence, values, taken + values.length);
                bySequence.put(sequence.name(), block);
            }
            if (expected != null && expected[0] > 0) {
                expected[0]--;
            }
            return block.values[block.next++];
        }

        @Override
        public void suspend() {
            TransactionSynchronizationManager.unbindResource(TransactionValues.this);
        }

        @Override
        public void resume() {
            TransactionSynchronizationManager.bindResource(TransactionValues.this, this);
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            bySequence.values().stream().filter(block -> block.next < block.values.length).forEach(Block::giveBack);
            bySequence.clear();
        }

        @Override
        public void afterCompletion(int status) {
            bySequence.clear();
            TransactionSynchronizationManager.unbindResourceIfPossible(TransactionValues.this);
        }
    }

    /** Values of one sequence taken in the transaction, handed out in order. */
    private final class Block {

        private final Sequence sequence;
        private final long[] values;
        /** How many values of the sequence the transaction has taken, this block included. */
        private final int taken;
        private int next;

        Block(Sequence sequence, long[] values, int taken) {
            this.sequence = sequence;
            this.values = values;
            this.taken = taken;
        }

        /** Gives back the unused tail; one that is not one run of counters cannot be, and is logged. */
        void giveBack() {
            KeyOrder keyOrder = sequence.settings().keyOrder();
            long firstUnused = keyOrder.counter(values[next]);
            long end = keyOrder.counter(values[values.length - 1]) + 1;
            int unused = values.length - next;
            boolean given = end - firstUnused == unused
                    && onConnection(connection -> sequence.giveBackInTransaction(connection, firstUnused, end));
            next = values.length;
            if (!given) {
                LOG.log(System.Logger.Level.WARNING, () -> "seqgen: sequence '" + sequence.name() + "': " + unused
                        + " value(s) taken in this transaction and not used could not be given back, and are a gap");
            }
        }
    }
}
