package dev.seqgen.testing;

import dev.seqgen.testing.conformance.GiveBackContract;
import dev.seqgen.testing.conformance.RowEditedByHandContract;
import dev.seqgen.testing.conformance.StoreUnderTest;
import dev.seqgen.testing.conformance.SyncContract;
import org.junit.jupiter.api.DisplayName;

/**
 * The conformance kit on the in-memory fake: the strategies' unit tests stand on it, so it keeps the contract the
 * real stores keep.
 */
@DisplayName("InMemorySequenceStore conformance")
class InMemorySequenceStoreConformanceTest implements SyncContract, GiveBackContract, RowEditedByHandContract {

    private final StoreUnderTest subject = new InMemoryStoreUnderTest();

    @Override
    public StoreUnderTest subject() {
        return subject;
    }
}
