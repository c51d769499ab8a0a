package dev.seqgen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * One open series as {@link SequenceRegistry#series} hands it out: the series' sequence (its strategy's
 * implementation, which holds the block) behind a handle that the registry can release when the series has been idle
 * ({@link SequenceRegistry#releaseIdleSeries()}), and that forwards to the series opened again when a caller that kept
 * it uses it after that.
 *
 * <pre>
 * Release of an idle series, and why no value is handed out twice and no closed series serves
 *
 * Every call into the series enters the handle first and leaves it after: `users` counts the calls inside, and
 * holds RELEASED once the registry has released the series. Entering is a compare-and-set from a count to the count
 * plus one, never from RELEASED; release is the registry's compare-and-set from 0 to RELEASED, taken only while no
 * call is inside. Exactly one of a caller's entry and the registry's release wins:
 *   - the caller's: the count is above 0, the release fails and the series stays open (it is idle again only after
 *     another full idle time);
 *   - the registry's: the caller sees RELEASED, never touches the released sequence, and forwards its call to the
 *     series the registry opens again (live()).
 * So the released sequence is closed with no call inside it, and nothing calls it afterwards. Its close is the close
 * of any sequence: the values it held and had not handed out go back to the row by the store's compare-and-set, or
 * are kept for the fleet, as when a JVM stops. The series opened again reserves from the row like any new instance,
 * so no value is handed out twice and none is lost.
 *
 * The release runs holding this handle's monitor, from the compare-and-set until the handle is out of the registry's
 * map, the close's store call included. A caller that finds the handle RELEASED takes the monitor first (live()), so
 * it opens the series again only after the released one has given its values back: the reopened series' first
 * reservation comes after the give-back, which then finds the row as the released series left it and succeeds.
 *
 * A call entering costs one compare-and-set, and one more leaving; a series' values are business numbers, most of
 * them SYNC, whose every value is a store round trip beside which that is nothing. Whether a series was used since the
 * registry last looked is a flag set on entry and on leaving (a plain read when it is set already), so that the
 * registry reads no clock on a caller's path.
 *
 * The registry's final close does not wait for calls inside: it closes the sequence as it closes every other one (a
 * call inside then fails with "the sequence is closed", as a plain sequence's does), and a handle released before
 * forwards to a registry that refuses to open anything.
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
     * Marks the series released if no call is inside; the caller (the registry) holds this handle's monitor and then
     * closes the sequence, {@linkplain #clear() lets go of it} and removes the handle from its map.
     *
     * @return the sequence to close, or null if a call is inside (or the series was released already)
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
            // Waits for a release under way (see the class comment): it holds this monitor until it is done.
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
        Sequence open = enter();
        if (open == null) {
            return live().next();
        }
        try {
            return open.next();
        } finally {
            leave();
        }
    }

    @Override
    public long[] nextValues(int count) {
        Sequence open = enter();
        if (open == null) {
            return live().nextValues(count);
        }
        try {
            return open.nextValues(count);
        } finally {
            leave();
        }
    }

    @Override
    public long nextInTransaction(Object transaction) {
        Sequence open = enter();
        if (open == null) {
            return live().nextInTransaction(transaction);
        }
        try {
            return open.nextInTransaction(transaction);
        } finally {
            leave();
        }
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        Sequence open = enter();
        if (open == null) {
            return live().nextValuesInTransaction(transaction, count);
        }
        try {
            return open.nextValuesInTransaction(transaction, count);
        } finally {
            leave();
        }
    }

    @Override
    public boolean giveBackInTransaction(Object transaction, long firstUnused, long end) {
        Sequence open = enter();
        if (open == null) {
            return live().giveBackInTransaction(transaction, firstUnused, end);
        }
        try {
            return open.giveBackInTransaction(transaction, firstUnused, end);
        } finally {
            leave();
        }
    }

    /**
     * The open sequence's statistics; once this handle was released, those of the series opened again, or none
     * (zeros) while it is not: reading them never opens a series.
     */
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

    /**
     * Closes the open sequence for good, calls inside or not (the registry's close); a released handle has nothing
     * left to close.
     *
     * @return the report, or null if there was nothing to close
     */
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
