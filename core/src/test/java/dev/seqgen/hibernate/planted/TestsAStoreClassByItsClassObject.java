package dev.seqgen.hibernate.planted;

import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.spi.SequenceStore;

/** Planted: a front end that tests a store's class through its {@code Class} object. */
final class TestsAStoreClassByItsClassObject {

    private TestsAStoreClassByItsClassObject() {
    }

    static boolean isNative(SequenceStore store) {
        return NativeSequenceStore.class.isInstance(store);
    }

    static boolean isNativeByName(SequenceStore store) {
        return store.getClass() == NativeSequenceStore.class;
    }
}
