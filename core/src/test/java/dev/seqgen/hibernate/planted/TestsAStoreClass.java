package dev.seqgen.hibernate.planted;

import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spi.SequenceStore;

/** Planted: a front end that tests a store's class with {@code instanceof}. */
final class TestsAStoreClass {

    private TestsAStoreClass() {
    }

    static boolean isJdbc(SequenceStore store) {
        return store instanceof JdbcSequenceStore;
    }
}
