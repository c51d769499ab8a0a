package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import org.hibernate.engine.spi.EntityEntry;
import org.hibernate.engine.spi.SessionImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.engine.spi.Status;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.resource.transaction.spi.TransactionObserver;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The values of SYNC {@link SeqgenNumber} sequences, taken for a whole flush in one increment per sequence,
 * before the flush sends its first statement.
 *
 * <pre>
 * Design: when the size of the flush is known, and why the values are reserved then
 *
 * Hibernate calls a number's generator from the entity's insert action, immediately before the INSERT is
 * bound and added to the JDBC batch; nothing tells a generator how many inserts of the flush are still to
 * come, and by the time the first numbered insert runs, the inserts of other entity types before it may
 * already wait in a batch. An increment there sits between them and the rest: JDBC batches survive it (the
 * increment runs beside the pending batch), but Spanner's auto_batch_dml does not (the increment is a query,
 * so the driver must first send the DML it buffered, and the flush's one ExecuteBatchDml becomes two).
 *
 * So the values are reserved at the first action the flush executes (FlushReservationListener explains that
 * hook and the others it was chosen over): the cascades have run, the flush has decided to execute, and none
 * of its statements has been sent. There the persistence context holds exactly the flush's inserts: managed
 * entries that do not exist in the database yet (the entity whose pre-insert event fires is not marked as
 * existing until its INSERT ran), each weighted by the SYNC numbers its entity type draws from each
 * sequence. One pass counts them for every sequence; each sequence then takes its count, less what its block
 * still holds, with one +N in the session's transaction. The sequences are taken in the order of their first
 * pending entity in the persistence context, which is the order of the persist() calls: the order in which
 * the inserts would have reached them. Transactions that persist in a consistent order lock the rows in a
 * consistent order, also when an early flush already holds one of them (a fixed order such as the names'
 * would take a second row before the one such a transaction holds, and deadlock with it). The generators
 * then hand the values out in the order Hibernate executes the inserts, with no statement of seqgen's between
 * them.
 *
 * The transaction holds the row from that increment to its end, so the values of one transaction are
 * consecutive across several flushes (an early flush before a query reserves its own N, at its own first
 * action). A rollback undoes the increment with the inserts: no gap. If fewer inserts ran than were counted
 * (a PreInsertEventListener that vetoed one), the rest stays in the block for the next flush of the
 * transaction, and what is left when the transaction commits is given back in it, before the commit
 * (Sequence.giveBackInTransaction), so committed numbers stay gapless. If more ran than were counted (an
 * entity persisted during the flush), or an insert runs outside a flush (Hibernate executes the queued
 * inserts at persist() of an entity with an IDENTITY id), the generator finds its block empty and reserves
 * then, counting the same way.
 *
 * The end of the transaction is seen by a TransactionObserver on the session's transaction coordinator
 * (the same API from Hibernate 7.1 to 7.4; the action queue's completion callbacks changed in 7.2). Its
 * beforeCompletion runs after Hibernate's last flush and before the commit, its afterCompletion after a
 * commit or a rollback, which drops the blocks.
 *
 * State is per session and per sequence, and a session is used by one thread at a time, so the blocks need
 * no locking; only the map from session to its blocks is shared, and it holds sessions weakly (a session
 * closed with its transaction never ended must not be kept). Which session's flush has begun is held per
 * thread, weakly too: a flush runs on one thread from its event to its last action. A session without a
 * transaction, or a stateless one (no persistence context to count, no flush), takes one value per insert.
 *
 * Flushes are watched only once a SYNC number that reserves at flush is configured: SeqgenRegistryService creates
 * this object then (numbersAtFlush), and registers the flush listener with it; until then there is no listener.
 * </pre>
 */
final class FlushReservations {

    /** Stripes of the map of sessions: a power of two. */
    private static final int STRIPES = 32;

    /**
     * The blocks of each session in a transaction (the value holds its session weakly), in stripes by the session's
     * identity hash: every flush and every end of a transaction passes through this map, so one lock for all the
     * JVM's sessions would make concurrent transactions of different tenants wait for each other here (and for a
     * holder descheduled under load); with stripes they rarely meet.
     */
    private final List<Map<SharedSessionContractImplementor, SessionBlocks>> sessions =
            Stream.generate(() -> Collections.synchronizedMap(
                    new WeakHashMap<SharedSessionContractImplementor, SessionBlocks>())).limit(STRIPES).toList();
    /** What an entity type's inserts draw from SYNC number sequences, per sequence; filled as types are met. */
    private final Map<EntityPersister, Map<String, PendingInserts.Draw>> drawsPerInsert = new ConcurrentHashMap<>();
    /** The session whose flush began on this thread and has not executed its first action yet. */
    private final ThreadLocal<WeakReference<SessionImplementor>> flushBegun = new ThreadLocal<>();

    /**
     * A flush of the session begins (a flush or an auto-flush event, before Hibernate's own listener): its
     * first action will reserve the values it needs.
     *
     * @param session the flushing session
     */
    void flushBegins(SessionImplementor session) {
        flushBegun.set(new WeakReference<>(session));
    }

    /**
     * An action is about to execute its statement. The first one a flush executes reserves, for each SYNC
     * number sequence, the values of the flush's inserts, before any statement of the flush is sent; every
     * other action, and an action outside a flush's executions (an insert Hibernate runs at persist()),
     * returns at once.
     */
    void actionExecutes() {
        WeakReference<SessionImplementor> begun = flushBegun.get();
        if (begun == null) {
            return;
        }
        SessionImplementor session = begun.get();
        if (session == null) {
            flushBegun.remove();
        } else if (session.getPersistenceContextInternal().isFlushing()) {
            flushBegun.remove();
            reserveForFlush(session);
        }
        // Otherwise the flush has not reached its executions yet (an insert at persist() during its cascades).
    }

    private void reserveForFlush(SessionImplementor session) {
        if (!session.isTransactionInProgress()) {
            return;
        }
        Map<String, PendingInserts> pending = pendingInserts(session);
        if (!pending.isEmpty()) {
            SessionBlocks blocks = blocksOf(session);
            pending.values().forEach(draw -> blocks.reserve(draw.sequence(), draw.values()));
        }
    }

    /**
     * Returns the next value of a SYNC number sequence for an insert of this session, from the values reserved
     * for its flush, or reserving the values the session's pending inserts need if there are none left.
     *
     * @param session the session executing the insert
     * @param sequence the started SYNC sequence
     * @return the next value, in insert order
     */
    long next(SharedSessionContractImplementor session, Sequence sequence) {
        if (!(session instanceof SessionImplementor stateful) || !session.isTransactionInProgress()) {
            return session.doReturningWork(sequence::nextInTransaction);
        }
        return blocksOf(stateful).next(sequence);
    }

    private SessionBlocks blocksOf(SessionImplementor session) {
        Map<SharedSessionContractImplementor, SessionBlocks> stripe = stripeOf(session);
        SessionBlocks blocks = stripe.get(session);
        if (blocks == null) {
            blocks = new SessionBlocks(this, session);
            session.getTransactionCoordinator().addObserver(blocks);
            stripe.put(session, blocks);
        }
        return blocks;
    }

    private Map<SharedSessionContractImplementor, SessionBlocks> stripeOf(SharedSessionContractImplementor session) {
        return sessions.get(System.identityHashCode(session) & (STRIPES - 1));
    }

    /**
     * The values the session's entities that are not inserted yet need, per SYNC number sequence or series of one
     * (by the name of its row: each series is counted apart, and takes its own increment), in the order of each
     * one's first such entity in the persistence context; a sequence none of them draws from is absent. An entity
     * whose series key cannot be made fails here, before the flush sends anything.
     */
    private Map<String, PendingInserts> pendingInserts(SharedSessionContractImplementor session) {
        Map<String, PendingInserts> pending = new LinkedHashMap<>();
        for (Map.Entry<Object, EntityEntry> managed : session.getPersistenceContextInternal()
                .reentrantSafeEntityEntries()) {
            EntityEntry entry = managed.getValue();
            if (!entry.isExistsInDatabase() && entry.getStatus() == Status.MANAGED) {
                for (PendingInserts.Draw draw : drawsPerInsert
                        .computeIfAbsent(entry.getPersister(), PendingInserts::draws).values()) {
                    Sequence sequence = draw.generator().sequenceFor(session, managed.getKey());
                    pending.computeIfAbsent(sequence.name(), name -> new PendingInserts(sequence))
                            .add(draw.values());
                }
            }
        }
        return pending;
    }

    /** One session's blocks for the current transaction; observes its end. */
    private static final class SessionBlocks implements TransactionObserver {

        private final FlushReservations owner;
        private final WeakReference<SharedSessionContractImplementor> session;
        /** Per sequence name: the values taken in this transaction and not handed out yet. */
        private final Map<String, FlushBlock> blocks = new HashMap<>();

        SessionBlocks(FlushReservations owner, SharedSessionContractImplementor session) {
            this.owner = owner;
            this.session = new WeakReference<>(session);
        }

        long next(Sequence sequence) {
            FlushBlock block = blocks.get(sequence.name());
            if (block == null || block.isEmpty()) {
                PendingInserts pending = owner.pendingInserts(session()).get(sequence.name());
                block = reserve(sequence, pending == null ? 1 : pending.values());
            }
            return block.take();
        }

        /**
         * Makes the sequence's block hold at least {@code count} values, taking what it lacks with one increment
         * in the session's transaction: after the values it still holds, because the transaction holds the row.
         */
        FlushBlock reserve(Sequence sequence, int count) {
            FlushBlock block = blocks.get(sequence.name());
            int held = block == null ? 0 : block.remaining();
            if (count > held) {
                long[] values = session().doReturningWork(
                        connection -> sequence.nextValuesInTransaction(connection, count - held));
                block = block == null ? new FlushBlock(sequence, values) : block.followedBy(values);
                blocks.put(sequence.name(), block);
            }
            return block;
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
            for (FlushBlock block : blocks.values()) {
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
                owner.stripeOf(current).remove(current);
                current.getTransactionCoordinator().removeObserver(this);
            }
        }
    }
}
