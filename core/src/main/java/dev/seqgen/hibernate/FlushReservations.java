package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import org.hibernate.engine.spi.EntityEntry;
import org.hibernate.engine.spi.SessionImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.engine.spi.Status;
import org.hibernate.generator.Generator;
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
 * SYNC {@link SeqgenNumber} values taken for a whole flush, one increment per sequence, before its first statement;
 * unused ones are given back before the commit. Per-session state is used by one thread at a time; only the striped,
 * weak session map is shared. See docs/design.md#flush-reservations.
 */
final class FlushReservations {

    /** Stripes of the session map, a power of two. */
    private static final int STRIPES = 32;

    /** Striped by identity hash: every flush passes here, and one lock would serialise transactions. */
    private final List<Map<SharedSessionContractImplementor, SessionBlocks>> sessions =
            Stream.generate(() -> Collections.synchronizedMap(
                    new WeakHashMap<SharedSessionContractImplementor, SessionBlocks>())).limit(STRIPES).toList();
    /** What one insert of an entity type draws, per sequence; filled as types are met. */
    private final Map<EntityPersister, Map<String, Draw>> drawsPerInsert = new ConcurrentHashMap<>();
    /** The session whose flush began on this thread and has not executed its first action yet. */
    private final ThreadLocal<WeakReference<SessionImplementor>> flushBegun = new ThreadLocal<>();

    void flushBegins(SessionImplementor session) {
        flushBegun.set(new WeakReference<>(session));
    }

    /** The first action a flush executes reserves its inserts' values. */
    void actionExecutes() {
        WeakReference<SessionImplementor> begun = flushBegun.get();
        SessionImplementor session = begun == null ? null : begun.get();
        if (begun == null || session != null && !session.getPersistenceContextInternal().isFlushing()) {
            return; // no flush, or not at its executions yet (an insert at persist() during cascades)
        }
        flushBegun.remove();
        if (session != null && session.isTransactionInProgress()) {
            pendingInserts(session).values()
                    .forEach(inserts -> blocksOf(session).reserve(inserts.sequence(), inserts.count()));
        }
    }

    /** {@return the next value for an insert: from the flush's block, reserving if it is empty} */
    long next(SharedSessionContractImplementor session, Sequence sequence) {
        return session instanceof SessionImplementor stateful && session.isTransactionInProgress()
                ? blocksOf(stateful).next(sequence) : session.doReturningWork(sequence::nextInTransaction);
    }

    private SessionBlocks blocksOf(SessionImplementor session) {
        return stripeOf(session).computeIfAbsent(session, key -> {
            SessionBlocks blocks = new SessionBlocks(session);
            session.getTransactionCoordinator().addObserver(blocks);
            return blocks;
        });
    }

    private Map<SharedSessionContractImplementor, SessionBlocks> stripeOf(SharedSessionContractImplementor session) {
        return sessions.get(System.identityHashCode(session) & (STRIPES - 1));
    }

    /** The values the session's pending inserts need, by row name; a bad series key fails here, before any insert. */
    private Map<String, PendingInserts> pendingInserts(SharedSessionContractImplementor session) {
        Map<String, PendingInserts> pending = new LinkedHashMap<>();
        for (Map.Entry<Object, EntityEntry> managed : session.getPersistenceContextInternal()
                .reentrantSafeEntityEntries()) {
            EntityEntry entry = managed.getValue();
            if (!entry.isExistsInDatabase() && entry.getStatus() == Status.MANAGED) {
                for (Draw draw : drawsPerInsert.computeIfAbsent(entry.getPersister(), FlushReservations::draws)
                        .values()) {
                    Sequence sequence = draw.generator().sequenceFor(session, managed.getKey());
                    pending.merge(sequence.name(), new PendingInserts(sequence, draw.values()), (held, more) ->
                            new PendingInserts(held.sequence(), (int) Math.min(held.count() + (long) more.count(),
                                    Integer.MAX_VALUE)));
                }
            }
        }
        return pending;
    }

    private final class SessionBlocks implements TransactionObserver {

        private final WeakReference<SharedSessionContractImplementor> session;
        private final Map<String, FlushBlock> blocks = new HashMap<>(); // by sequence name

        SessionBlocks(SharedSessionContractImplementor session) {
            this.session = new WeakReference<>(session);
        }

        long next(Sequence sequence) {
            FlushBlock block = blocks.get(sequence.name());
            if (block == null || block.remaining() == 0) {
                PendingInserts pending = pendingInserts(session()).get(sequence.name());
                block = reserve(sequence, pending == null ? 1 : pending.count());
            }
            return block.take();
        }

        /** Makes the block hold at least {@code count} values, with one increment in the session's transaction. */
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

        @Override
        public void beforeCompletion() {
            SharedSessionContractImplementor current = session.get();
            if (current != null) {
                blocks.values().stream().filter(b -> b.remaining() > 0).forEach(b -> b.giveBack(current));
            }
            blocks.clear();
        }

        @Override
        public void afterCompletion(boolean successful, boolean delayed) {
            blocks.clear();
            SharedSessionContractImplementor current = session.get();
            if (current != null) {
                stripeOf(current).remove(current);
                current.getTransactionCoordinator().removeObserver(this);
            }
        }
    }

    /** What one insert of an entity type draws from each SYNC number sequence, in attribute order. */
    private static Map<String, Draw> draws(EntityPersister persister) {
        Map<String, Draw> draws = new LinkedHashMap<>();
        for (Generator generator : persister.getEntityMetamodel().getGenerators()) {
            if (generator instanceof AbstractSeqgenGenerator<?> seqgen) {
                String sequence = seqgen.reservedAtFlush();
                if (sequence != null) {
                    draws.merge(sequence, new Draw(seqgen, 1),
                            (drawn, more) -> new Draw(drawn.generator(), drawn.values() + more.values()));
                }
            }
        }
        return Collections.unmodifiableMap(draws);
    }

    /** What one insert draws from one sequence, and one of the generators drawing from it. */
    private record Draw(AbstractSeqgenGenerator<?> generator, int values) {
    }

    /** The values a session's pending inserts need from one SYNC number sequence or series, for a flush to reserve. */
    private record PendingInserts(Sequence sequence, int count) {
    }
}
