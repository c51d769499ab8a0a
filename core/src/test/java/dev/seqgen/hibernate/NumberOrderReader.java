package dev.seqgen.hibernate;

import dev.seqgen.testing.TestDatabase;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A reader of committed SYNC numbers that checks they become visible in number order: every snapshot is 1..k.
 *
 * <p>PostgreSQL, H2 and HSQLDB make a commit visible to new snapshots before they release its locks, and take a
 * snapshot atomically, so there every snapshot must be a prefix. MariaDB releases locks after the commit is visible
 * too, but builds a read view by walking its active transactions while others commit: a reader delayed inside that
 * walk (a busy machine) can find transaction B committed and A, which committed before B took the row's lock, still
 * active, and see B's numbers without A's. That has been seen twice, always as a number visible late, never lost. So
 * on MariaDB a snapshot with a hole is read again until the hole is filled: its numbers must be committed, since a
 * larger committed number was taken after them (a rolled-back number is taken again by the next transaction, so a
 * hole below a committed number cannot come from a rollback). A hole that never fills fails.
 */
final class NumberOrderReader {

    /** How long a hole may take to fill on MariaDB: far beyond any commit, so only a lost number reaches it. */
    private static final long HOLE_BOUND_NANOS = 60_000_000_000L;

    private final TestDatabase database;
    private final Supplier<long[]> snapshot;
    private final long holeBoundNanos;

    /**
     * @param database the database read
     * @param snapshot one snapshot of the committed numbers, sorted
     */
    NumberOrderReader(TestDatabase database, Supplier<long[]> snapshot) {
        this(database, snapshot, HOLE_BOUND_NANOS);
    }

    NumberOrderReader(TestDatabase database, Supplier<long[]> snapshot, long holeBoundNanos) {
        this.database = database;
        this.snapshot = snapshot;
        this.holeBoundNanos = holeBoundNanos;
    }

    /**
     * Takes one snapshot and checks it: a prefix 1..k, or on MariaDB a hole that a later snapshot fills.
     *
     * @throws AssertionError a snapshot with a hole (MariaDB: a hole that did not fill)
     */
    void check() {
        long[] numbers = snapshot.get();
        int hole = firstHole(numbers);
        if (hole < 0) {
            return;
        }
        String seen = "a reader saw invoice number " + numbers[hole] + " before number " + (hole + 1)
                + " was visible: " + numbers.length + " invoices visible";
        if (database != TestDatabase.MARIADB) {
            throw new AssertionError(seen);
        }
        long highest = numbers[numbers.length - 1];
        long deadline = System.nanoTime() + holeBoundNanos;
        while (true) {
            long[] later = snapshot.get();
            if (later.length >= highest && firstHole(Arrays.copyOf(later, (int) highest)) < 0) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(seen + "; the numbers up to " + highest
                        + " were still not all visible after " + holeBoundNanos / 1_000_000 + " ms");
            }
            Thread.onSpinWait();
        }
    }

    /** The index of the first number that is not its index + 1, or -1 when the numbers are 1..n. */
    private static int firstHole(long[] numbers) {
        for (int i = 0; i < numbers.length; i++) {
            if (numbers[i] != i + 1) {
                return i;
            }
        }
        return -1;
    }
}
