package dev.seqgen;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * One open series, named {@code name#key}, as {@link SequenceRegistry#series} hands it out: a handle the registry can
 * release when idle, forwarding to the series opened again when a caller that kept it uses it after that.
 *
 * <p>Lock-free entry (docs/design.md#idle-series-release): {@code users} counts the calls inside, or holds RELEASED.
 * Entry is a CAS from a count to count + 1, never from RELEASED; release is the registry's CAS from 0 to RELEASED:
 * exactly one wins. A caller finding RELEASED forwards to live(), which first takes this monitor, held by the release
 * until the released sequence has given its values back.
 */
final class SeriesSequence extends NamedSequence {

    private static final int RELEASED = Integer.MIN_VALUE;

    private final SequenceRegistry registry;
    /** Null once released: a caller that kept the handle keeps no block or counter alive. */
    private volatile @Nullable Sequence sequence;
    private final AtomicInteger users = new AtomicInteger();
    /** Whether a call entered since the registry last looked; set by callers, cleared by the registry. */
    private volatile boolean used;
    /** When the registry first found the series unused; the registry's sweep only. */
    long idleSince;

    SeriesSequence(SequenceRegistry registry, String row, SequenceSettings settings, Sequence sequence, long openedAt) {
        super(row, settings);
        this.registry = registry;
        this.sequence = sequence;
        this.idleSince = openedAt;
    }

    String sequenceName() {
        return name.substring(0, name.indexOf('#'));
    }

    String key() {
        return name.substring(name.indexOf('#') + 1);
    }

    @Nullable Sequence sequence() {
        return sequence;
    }

    boolean released() {
        return users.get() == RELEASED;
    }

    boolean inUse() {
        return users.get() > 0;
    }

    boolean takeUsed() {
        if (used) {
            used = false;
            return true;
        }
        return false;
    }

    /** Marks the series released if no call is inside (under this monitor); the sequence to close, or null. */
    @Nullable Sequence release() {
        return users.compareAndSet(0, RELEASED) ? sequence : null;
    }

    /** Lets go of the released sequence once it is closed and its counts are the group's. */
    void clear() {
        sequence = null;
    }

    /** The open sequence, entered; null if the series was released. */
    private @Nullable Sequence enter() {
        for (;;) {
            int inside = users.get();
            if (inside == RELEASED) {
                return null;
            }
            if (users.compareAndSet(inside, inside + 1)) {
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
        users.decrementAndGet();
    }

    private Sequence live() {
        synchronized (this) {
            // Waits for a release under way: it holds this monitor until it is done.
        }
        return registry.series(sequenceName(), key(), settings);
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

    /** {@link #call}, unboxed for the hot path. */
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
        SequenceStats stats = open != null ? open.stats() : registry.openSeriesStats(name);
        return stats != null ? stats : SequenceStats.none(name, settings.strategy(), settings.blockSize());
    }

    @Override
    public void close() {
        AbstractSequence.log(closeAndReport());
    }

    /** Closes the open sequence for good, calls inside or not; null if released. */
    synchronized @Nullable CloseReport closeAndReport() {
        Sequence open = sequence;
        return open == null ? null : Sequences.closeAndReport(open);
    }

    void awaitFirstBlock(long deadline) {
        call(open -> {
            if (open instanceof SeriesSequence reopened) {
                reopened.awaitFirstBlock(deadline);
            } else if (open instanceof AbstractSequence held) {
                held.awaitFirstBlock(deadline);
            }
            return null;
        });
    }

    @Override
    public String toString() {
        return "SeriesSequence[" + name() + (released() ? ", released" : "") + "]";
    }
}
