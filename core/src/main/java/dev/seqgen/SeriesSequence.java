package dev.seqgen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * One open series as {@link SequenceRegistry#series} hands it out: the series' sequence behind a handle the registry
 * can release when idle ({@link SequenceRegistry#releaseIdleSeries()}), forwarding to the series opened again when a
 * caller that kept it uses it after that.
 *
 * <pre>
 * Release (lock-free entry, see docs/design.md#idle-series-release): `users` counts the calls inside, or holds
 * RELEASED. Entry is a CAS from a count to count + 1, never from RELEASED; release is the registry's CAS from 0 to
 * RELEASED. Exactly one wins: a caller inside keeps the series open; a caller finding RELEASED never touches the
 * released sequence and forwards to live(), which first takes this monitor, held by the release until the released
 * sequence has given its values back, so the reopened series reserves after the give-back.
 * </pre>
 */
final class SeriesSequence implements Sequence {

    /** {@link #users} once the series is released: no call enters again. */
    private static final int RELEASED = Integer.MIN_VALUE;

    private static final VarHandle USERS;

    static {
        try {
            USERS = MethodHandles.lookup().findVarHandle(SeriesSequence.class, "users", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SequenceRegistry registry;
    /** The series' row, {@code name#key}: the registry's key for it, the same string. */
    private final String row;
    /** The sequence's settings, which the series was opened with. */
    private final SequenceSettings settings;
    /** Null once released: a caller that kept the handle keeps no block or counter alive. */
    private volatile @Nullable Sequence sequence;
    /** The calls inside {@link #sequence}, or {@link #RELEASED}; through {@link #USERS}. */
    @SuppressWarnings("unused")
    private volatile int users;
    /** Whether a call entered since the registry last looked; set by callers, cleared by the registry. */
    private volatile boolean used;
    /** When the registry first found the series unused; read and written by the registry's sweep only. */
    long idleSince;

    SeriesSequence(SequenceRegistry registry, String row, SequenceSettings settings, Sequence sequence,
            long openedAt) {
        this.registry = registry;
        this.row = row;
        this.settings = settings;
        this.sequence = sequence;
        this.idleSince = openedAt;
    }

    /** The sequence name this series belongs to. */
    String sequenceName() {
        return row.substring(0, row.indexOf('#'));
    }

    /** The series key. */
    String key() {
        return row.substring(row.indexOf('#') + 1);
    }

    /** The series' sequence while it is open; null once released. */
    @Nullable Sequence sequence() {
        return sequence;
    }

    /** Whether the registry released the series. */
    boolean released() {
        return (int) USERS.getVolatile(this) == RELEASED;
    }

    /** Whether a call is inside; for the registry's sweep. */
    boolean inUse() {
        return (int) USERS.getVolatile(this) > 0;
    }

    /** Reads and clears whether a call entered since the last look; for the registry's sweep. */
    boolean takeUsed() {
        if (used) {
            used = false;
            return true;
        }
        return false;
    }

    /**
     * Marks the series released if no call is inside; the registry holds this monitor, then closes the sequence,
     * {@linkplain #clear() lets go of it} and unmaps the handle. Returns the sequence to close, or null.
     */
    @Nullable Sequence release() {
        return USERS.compareAndSet(this, 0, RELEASED) ? sequence : null;
    }

    /** Lets go of the released sequence, once it is closed and its counts are the group's. */
    void clear() {
        sequence = null;
    }

    /** Enters: the open sequence, or null if the series was released (the caller then goes to {@link #live()}). */
    private @Nullable Sequence enter() {
        for (;;) {
            int inside = (int) USERS.getVolatile(this);
            if (inside == RELEASED) {
                return null;
            }
            if (USERS.compareAndSet(this, inside, inside + 1)) {
                if (!used) {
                    used = true;
                }
                return sequence;
            }
        }
    }

    private void leave() {
        if (!used) {
            // A call that spanned a look of the registry's counts as a use at the next look too.
            used = true;
        }
        USERS.getAndAdd(this, -1);
    }

    /** The series as the registry has it open now, once the release of this handle has finished. */
    private Sequence live() {
        synchronized (this) {
            // Waits for a release under way: it holds this monitor until it is done.
        }
        return registry.series(sequenceName(), key(), settings);
    }

    @Override
    public String name() {
        return row;
    }

    @Override
    public Strategy strategy() {
        return settings.strategy();
    }

    @Override
    public SequenceSettings settings() {
        return settings;
    }

    @Override
    public long next() {
        return callLong(Sequence::next);
    }

    @Override
    public long[] nextValues(int count) {
        return call(open -> open.nextValues(count));
    }

    @Override
    public long nextInTransaction(Object transaction) {
        return callLong(open -> open.nextInTransaction(transaction));
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        return call(open -> open.nextValuesInTransaction(transaction, count));
    }

    @Override
    public boolean giveBackInTransaction(Object transaction, long firstUnused, long end) {
        return call(open -> open.giveBackInTransaction(transaction, firstUnused, end));
    }

    /** Runs a call inside the open sequence, or forwards it to the series opened again once this one is released. */
    private <T> T call(Function<Sequence, T> call) {
        Sequence open = enter();
        if (open == null) {
            return call.apply(live());
        }
        try {
            return call.apply(open);
        } finally {
            leave();
        }
    }

    /** {@link #call} for a {@code long}, unboxed. */
    private long callLong(ToLongFunction<Sequence> call) {
        Sequence open = enter();
        if (open == null) {
            return call.applyAsLong(live());
        }
        try {
            return call.applyAsLong(open);
        } finally {
            leave();
        }
    }

    /** The open sequence's statistics; once released, the reopened series' or zeros (never opens a series). */
    @Override
    public SequenceStats stats() {
        Sequence open = sequence;
        if (open != null) {
            return open.stats();
        }
        SequenceStats reopened = registry.openSeriesStats(row);
        return reopened != null ? reopened : new SequenceStats(row, settings.strategy(), 0, 0, 0, 0, 0, 0, -1, -1,
                0, settings.blockSize(), 0, 0, -1, 0.0);
    }

    /** Closes the series for good, as the registry's close does. */
    @Override
    public void close() {
        CloseReport report = closeAndReport();
        if (report != null) {
            AbstractSequence.log(report);
        }
    }

    /** Closes the open sequence for good, calls inside or not; returns the report, or null if released. */
    synchronized @Nullable CloseReport closeAndReport() {
        Sequence open = sequence;
        return open == null ? null : Sequences.closeAndReport(open);
    }

    /** Waits until the open sequence holds its first block, for a warm-up. */
    void awaitFirstBlock(long deadline) {
        Sequence open = enter();
        if (open == null) {
            ((SeriesSequence) live()).awaitFirstBlock(deadline);
            return;
        }
        try {
            if (open instanceof AbstractSequence held) {
                held.awaitFirstBlock(deadline);
            }
        } finally {
            leave();
        }
    }

    @Override
    public String toString() {
        return "SeriesSequence[" + name() + (released() ? ", released" : "") + "]";
    }
}
