package dev.seqgen.hibernate.planted.clean;

import dev.seqgen.CounterKind;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spi.SequenceStore;

/** Planted: what the rules allow a front end, asking a store through the SPI and naming a store class's constant. */
final class AsksTheSpi {

    private AsksTheSpi() {
    }

    static boolean countsInATable(SequenceStore store) {
        return store.kind() == CounterKind.TABLE && !store.name().isEmpty();
    }

    static Class<?> storeTypeForTheFramework() {
        return JdbcSequenceStore.class;
    }

    static String defaultTable() {
        return JdbcSequenceStore.DEFAULT_TABLE;
    }
}
