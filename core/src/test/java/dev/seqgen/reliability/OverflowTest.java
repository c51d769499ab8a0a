package dev.seqgen.reliability;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A maximum that leaves no room for the row's {@code next_value} is refused in the settings. The race for the last
 * values below a maximum, and a row edited to {@code Long.MAX_VALUE}, are part of the store conformance kit
 * ({@code StoreContract}, {@code RowEditedByHandContract}), which every store runs.
 */
class OverflowTest {

    @Test
    void aMaximumThatLeavesNoRoomForTheRowIsRejected() {
        assertThatThrownBy(() -> SequenceSettings.builder().maxValue(Long.MAX_VALUE))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'max-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().initialValue(Long.MAX_VALUE).build())
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'initial-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().maxValue(SequenceSettings.INT_MAX_VALUE)
                .initialValue(SequenceSettings.INT_MAX_VALUE + 1).build())
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'initial-value'");
    }
}
