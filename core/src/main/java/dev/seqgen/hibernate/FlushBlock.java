package dev.seqgen.hibernate;

import dev.seqgen.KeyOrder;
import dev.seqgen.Sequence;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.jspecify.annotations.Nullable;
import java.util.Arrays;
import java.util.stream.IntStream;

/** One SYNC sequence's values taken in a session's transaction; one thread at a time, no locking. */
final class FlushBlock {

    private final Sequence sequence;
    private final long[] values;
    private int next;

    FlushBlock(Sequence sequence, long[] values) {
        this.sequence = sequence;
        this.values = values;
    }

    int remaining() {
        return values.length - next;
    }

    /** A block of this one's values not handed out yet, then the given ones. */
    FlushBlock followedBy(long[] more) {
        long[] joined = Arrays.copyOfRange(values, next, values.length + more.length);
        System.arraycopy(more, 0, joined, remaining(), more.length);
        return new FlushBlock(sequence, joined);
    }

    long take() {
        return values[next++];
    }

    /** Gives back the unused tail; values that are not one consecutive tail cannot be, and are logged. */
    void giveBack(SharedSessionContractImplementor session) {
        // Given back as counters: with a skip range the tail may span more counters than values, handed to nobody.
        KeyOrder keyOrder = sequence.settings().keyOrder();
        long firstUnused = keyOrder.counter(values[next]);
        long end = keyOrder.counter(values[values.length - 1]) + 1;
        int unused = remaining();
        boolean consecutive = sequence.settings().skipRange().isEmpty() ? end - firstUnused == unused
                : IntStream.range(next + 1, values.length)
                        .allMatch(i -> keyOrder.counter(values[i]) > keyOrder.counter(values[i - 1]));
        @Nullable Boolean given = consecutive ? session.doReturningWork(
                connection -> sequence.giveBackInTransaction(connection, firstUnused, end)) : Boolean.FALSE;
        next = values.length;
        if (!Boolean.TRUE.equals(given)) {
            System.getLogger(FlushBlock.class.getName()).log(System.Logger.Level.WARNING, () -> "sequence '"
                    + sequence.name() + "': " + unused + " value(s) taken for inserts of this transaction that did"
                    + " not run (" + (keyOrder == KeyOrder.SEQUENTIAL ? "" : "counters ") + "[" + firstUnused + ", "
                    + end + ")) could not be given back, and are a gap");
        }
    }
}
