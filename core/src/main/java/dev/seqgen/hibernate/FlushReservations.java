package dev.seqgen.hibernate;

import dev.seqgen.KeyOrder;
import dev.seqgen.Sequence;
import org.hibernate.engine.spi.EntityEntry;
import org.hibernate.engine.spi.SessionImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.engine.spi.Status;
import org.hibernate.generator.Generator;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.resource.transaction.spi.TransactionObserver;
import org.jspecify.annotations.Nullable;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values of SYNC {@link SeqgenNumber} sequences, taken for a whole flush in one increment per sequence.
 *
 * <pre>
 * Design: where the size of the flush is known, and why the values are reserved there
 *
 * Hibernate calls a number's generator from the entity's insert action, immediately before the INSERT is
 * bound and added to the JDBC batch; nothing tells a generator how many inserts of the flush are still to
 * come. Three places could know it: the action queue (its list of insertions is not public API), a flush
 * event listener (it runs before the insert actions are final: cascades at flush add more), and the
 * persistence context at the first insert of the flush, which is what is done here. When a sequence's block for this session is used up, the entities still to be inserted are
 * counted: managed entries that do not exist in the database yet, each weighted by the SYNC numbers its
 * entity type draws from this sequence. At the first insert of a flush that is exactly the flush's inserts
 * (the cascades have run; the entity being inserted is not marked as existing until its INSERT ran), so
 * one statement, +N in the session's transaction, reserves them all, and the values are handed out in the
 * order Hibernate executes the inserts. Between the batched inserts there is no other statement: JDBC
 * batching and Spanner's auto_batch_dml keep one batch.
 *
 * The transaction holds the row from that increment to its end, so the values of one transaction are
 * consecutive across several flushes (an early flush before a query reserves its own N). A rollback undoes
 * the increment with the inserts: no gap. If fewer inserts ran than were counted (a PreInsertEventListener
 * that vetoed one), the rest stays in the block for the next flush of the transaction, and what is left
 * when the transaction commits is given back in it, before the commit (Sequence.giveBackInTransaction),
 * so committed numbers stay gapless. If more ran than were counted, the next insert simply reserves again.
 *
 * The end of the transaction is seen by a TransactionObserver on the session's transaction coordinator
 * (the same API from Hibernate 7.1 to 7.4; the action queue's completion callbacks changed in 7.2). Its
 * beforeCompletion runs after Hibernate's last flush and before the commit, its afterCompletion after a
 * commit or a rollback, which drops the blocks.
 *
 * State is per session and per sequence, and a session is used by one thread at a time, so the blocks need
 * no locking; only the map from session to its blocks is shared, and it holds sessions weakly (a session
 * closed with its transaction never ended must not be kept). A session without a transaction, or a
 * stateless one (no persistence context to count), takes one value per insert, as before.
 * </pre>
 */
final class FlushReservations {

    private static final System.Logger LOG = System.getLogger(FlushReservations.class.getName());

    /** The blocks of each session in a transaction; the value holds its session weakly. */
    private final Map<SharedSessionContractImplementor, SessionBlocks> sessions =
            Collections.synchronizedMap(new WeakHashMap<>());
    /** How many SYNC numbers of each sequence an entity type draws per insert; filled as types are met. */
    private final Map<EntityPersister, Map<String, Integer>> drawsPerInsert = new ConcurrentHashMap<>();

    /**
     * Returns the next value of a SYNC number sequence for an insert of this session, reserving the values the
     * session's pending inserts need when its block is used up.
     *
     * @param session the session executing the insert
     * @param sequence the started SYNC sequence
     * @return the next value, in insert order
     */
    long next(SharedSessionContractImplementor session, Sequence sequence) {
        if (!(session instanceof SessionImplementor) || !session.isTransactionInProgress()) {
            return session.doReturningWork(sequence::nextInTransaction);
        }
        SessionBlocks blocks = sessions.get(session);
        if (blocks == null) {
            blocks = new SessionBlocks(this, session);
            session.getTransactionCoordinator().addObserver(blocks);
            sessions.put(session, blocks);
        }
        return blocks.next(sequence);
    }

    /** How many values of the sequence the session's entities that are not inserted yet need; at least 1. */
    private int pendingInserts(SharedSessionContractImplementor session, String sequence) {
        long pending = 0;
        for (Map.Entry<Object, EntityEntry> managed : session.getPersistenceContextInternal()
                .reentrantSafeEntityEntries()) {
            EntityEntry entry = managed.getValue();
            if (!entry.isExistsInDatabase() && entry.getStatus() == Status.MANAGED) {
                pending += drawsPerInsert.computeIfAbsent(entry.getPersister(), FlushReservations::draws)
                        .getOrDefault(sequence, 0);
            }
        }
        return (int) Math.max(1, Math.min(pending, Integer.MAX_VALUE));
    }

    /** The SYNC number sequences an entity type's inserts draw from, and how many values each. */
    private static Map<String, Integer> draws(EntityPersister persister) {
        Map<String, Integer> draws = new HashMap<>();
        for (Generator generator : persister.getEntityMetamodel().getGenerators()) {
            if (generator instanceof AbstractSeqgenGenerator<?> seqgen) {
                String sequence = seqgen.reservedAtFlush();
                if (sequence != null) {
                    draws.merge(sequence, 1, Integer::sum);
                }
            }
        }
        return Map.copyOf(draws);
    }

    /** One session's blocks for the current transaction; observes its end. */
    private static final class SessionBlocks implements TransactionObserver {

        private final FlushReservations owner;
        private final WeakReference<SharedSessionContractImplementor> session;
        /** Per sequence name: the values taken in this transaction and not handed out yet. */
        private final Map<String, Block> blocks = new HashMap<>();

        SessionBlocks(FlushReservations owner, SharedSessionContractImplementor session) {
            this.owner = owner;
            this.session = new WeakReference<>(session);
        }

        long next(Sequence sequence) {
            Block block = blocks.get(sequence.name());
            if (block == null || block.isEmpty()) {
                SharedSessionContractImplementor current = session();
                int count = owner.pendingInserts(current, sequence.name());
                long[] values = current.doReturningWork(
                        connection -> sequence.nextValuesInTransaction(connection, count));
                block = new Block(sequence, values);
                blocks.put(sequence.name(), block);
            }
            return block.take();
        }

        private SharedSessionContractImplementor session() {
            SharedSessionContractImplementor current = session.get();
            if (current == null) {
                throw new IllegalStateException("the session was collected while its transaction was open");
            }
            return current;
        }

        @Override
        public void afterBegin() {
            // Blocks are created inside a transaction and dropped at its end.
        }

        /**
         * Runs after Hibernate's last flush of the transaction, before the commit: values counted but not
         * used are given back in the transaction, which still holds the row.
         */
        @Override
        public void beforeCompletion() {
            SharedSessionContractImplementor current = session.get();
            if (current == null) {
                return;
            }
            for (Block block : blocks.values()) {
                if (!block.isEmpty()) {
                    block.giveBack(current);
                }
            }
            blocks.clear();
        }

        @Override
        public void afterCompletion(boolean successful, boolean delayed) {
            blocks.clear();
            SharedSessionContractImplementor current = session.get();
            if (current != null) {
                owner.sessions.remove(current);
                current.getTransactionCoordinator().removeObserver(this);
            }
        }
    }

    /** Values of one sequence taken in the transaction, handed out in order. */
    private static final class Block {

        private final Sequence sequence;
        private final long[] values;
        private int next;

        Block(Sequence sequence, long[] values) {
            this.sequence = sequence;
            this.values = values;
        }

        boolean isEmpty() {
            return next == values.length;
        }

        long take() {
            return values[next++];
        }

        /** Whether the counters of the unused tail increase, as those of one increment do. */
        private boolean increasingCounters(KeyOrder keyOrder) {
            for (int i = next + 1; i < values.length; i++) {
                if (keyOrder.counter(values[i]) <= keyOrder.counter(values[i - 1])) {
                    return false;
                }
            }
            return true;
        }

        /** Gives back the unused tail; values that are not one consecutive tail cannot be, and are logged. */
        void giveBack(SharedSessionContractImplementor session) {
            // The row counts counters: the tail is given back as the counters of its values (for key-order
            // bit-reversed, the keys mapped back). Counters a skip range passed over between them were handed to
            // nobody, so with a skip range the tail may span more counters than it holds values.
            KeyOrder keyOrder = sequence.settings().keyOrder();
            long firstUnused = keyOrder.counter(values[next]);
            long end = keyOrder.counter(values[values.length - 1]) + 1;
            int unused = values.length - next;
            boolean consecutive = sequence.settings().skipRange().isEmpty()
                    ? end - firstUnused == unused
                    : increasingCounters(keyOrder);
            @Nullable Boolean given = consecutive
                    ? session.doReturningWork(connection -> sequence.giveBackInTransaction(connection, firstUnused, end))
                    : Boolean.FALSE;
            next = values.length;
            if (!Boolean.TRUE.equals(given)) {
                LOG.log(System.Logger.Level.WARNING, () -> "sequence '" + sequence.name() + "': " + unused
                        + " value(s) taken for inserts of this transaction that did not run ("
                        + (keyOrder == KeyOrder.SEQUENTIAL ? "" : "counters ") + "[" + firstUnused + ", " + end
                        + ")) could not be given back, and are a gap");
            }
        }
    }
}
