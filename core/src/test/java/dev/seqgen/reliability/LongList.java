package dev.seqgen.reliability;

import java.util.Arrays;

/** A growable list of {@code long}s for one thread's values, without boxing. */
final class LongList {

    private long[] values = new long[1024];
    private int size;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    void addAll(long[] more) {
        for (long value : more) {
            add(value);
        }
    }

    int size() {
        return size;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }

    /** All values of all lists in one array. */
    static long[] concat(Iterable<LongList> lists) {
        int total = 0;
        for (LongList list : lists) {
            total += list.size;
        }
        long[] all = new long[total];
        int at = 0;
        for (LongList list : lists) {
            System.arraycopy(list.values, 0, all, at, list.size);
            at += list.size;
        }
        return all;
    }
}
