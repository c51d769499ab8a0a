package dev.seqgen.hibernate;

import dev.seqgen.testing.TestDatabase;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reader the SYNC visibility tests use: strict where the database takes snapshots at one instant. */
class NumberOrderReaderTest {

    @Test
    void aHoleFailsAtOnceWhereSnapshotsAreTakenAtOneInstant() {
        Deque<long[]> snapshots = new ArrayDeque<>(List.of(new long[] {1, 2, 4}, new long[] {1, 2, 3, 4}));
        NumberOrderReader reader = new NumberOrderReader(TestDatabase.POSTGRESQL, snapshots::poll);
        assertThatThrownBy(reader::check).isInstanceOf(AssertionError.class)
                .hasMessage("a reader saw invoice number 4 before number 3 was visible: 3 invoices visible");
    }

    @Test
    void onMariaDbAHoleThatALaterSnapshotFillsPasses() {
        Deque<long[]> snapshots = new ArrayDeque<>(List.of(new long[] {1, 2, 4}, new long[] {1, 2, 4},
                new long[] {1, 2, 3, 4, 5}, new long[] {1}));
        NumberOrderReader reader = new NumberOrderReader(TestDatabase.MARIADB, snapshots::poll);
        assertThatCode(reader::check).doesNotThrowAnyException();
        assertThatCode(reader::check).as("the next snapshot is checked on its own").doesNotThrowAnyException();
    }

    @Test
    void onMariaDbAHoleThatNeverFillsFails() {
        NumberOrderReader reader = new NumberOrderReader(TestDatabase.MARIADB, () -> new long[] {1, 2, 4, 5}, 0);
        assertThatThrownBy(reader::check).isInstanceOf(AssertionError.class)
                .hasMessageContainingAll("saw invoice number 4 before number 3", "the numbers up to 5 were still not"
                        + " all visible");
    }
}
