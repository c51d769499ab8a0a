package dev.seqgen.spi;

import dev.seqgen.SequenceSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The arithmetic every store shares: what is left below the maximum, with no sum that overflows. */
class ReservedRangeTest {

    private static final long MAX = SequenceSettings.LARGEST_MAX_VALUE;

    @Test
    void aBlockFitsWholeUntilTheMaximumIsNearerThenWhatIsLeftThenNothing() {
        assertThat(ReservedRange.fitting(1, 100, 1000)).isEqualTo(100);
        assertThat(ReservedRange.fitting(951, 100, 1000)).isEqualTo(50);
        assertThat(ReservedRange.fitting(1000, 100, 1000)).isEqualTo(1);
        assertThat(ReservedRange.fitting(1001, 100, 1000)).isZero();
        assertThat(ReservedRange.fitting(MAX - 1, Long.MAX_VALUE, MAX)).isEqualTo(2);
        assertThat(ReservedRange.fitting(Long.MAX_VALUE, 1, MAX)).isZero();
    }

    @Test
    void theGuardOfAConditionalIncrementIsTheLastStartFromWhichTheBlockFits() {
        assertThat(ReservedRange.lastStart(100, 1000)).isEqualTo(901);
        assertThat(ReservedRange.fitting(ReservedRange.lastStart(100, 1000), 100, 1000)).isEqualTo(100);
        assertThat(ReservedRange.fitting(ReservedRange.lastStart(100, 1000) + 1, 100, 1000)).isEqualTo(99);
        assertThat(ReservedRange.lastStart(MAX, MAX)).isEqualTo(1);
    }

    @Test
    void aWholeBlockIsCutAtTheMaximum() {
        assertThat(ReservedRange.upTo(1, 50, 1000)).isEqualTo(new ReservedRange(1, 51));
        assertThat(ReservedRange.upTo(990, 50, 1000)).isEqualTo(new ReservedRange(990, 1001));
        assertThat(ReservedRange.upTo(MAX - 9, 1_000_000, MAX)).isEqualTo(new ReservedRange(MAX - 9, MAX + 1));
        assertThatThrownBy(() -> ReservedRange.upTo(1001, 50, 1000)).isInstanceOf(IllegalArgumentException.class);
    }
}
