package dev.seqgen;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SequenceSettingsTest {

    @Test
    void defaultsAreDocumentedValues() {
        SequenceSettings settings = SequenceSettings.defaults();
        assertThat(settings.strategy()).isEqualTo(Strategy.ASYNC_BATCH);
        assertThat(settings.blockSize()).isEqualTo(1000);
        assertThat(settings.lowWatermark()).isEqualTo(250);
        assertThat(settings.acquireTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.initialValue()).isEqualTo(1);
        assertThat(settings.maxValue()).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(settings.adaptive()).as("adaptive by default for async-batch").isTrue();
        assertThat(settings.adaptiveSet()).isFalse();
        assertThat(settings.lowWatermarkSet()).isFalse();
        for (Strategy other : new Strategy[] {Strategy.SYNC, Strategy.ASYNC, Strategy.BATCH}) {
            assertThat(SequenceSettings.builder().strategy(other).build().adaptive()).as(other.name()).isFalse();
        }
        assertThat(SequenceSettings.builder().strategy(Strategy.BATCH).adaptive(true).build().adaptive()).isTrue();
        assertThat(SequenceSettings.builder().adaptive(false).build().adaptive()).isFalse();
    }

    @Test
    void adaptiveMaximumBelowTheBlockIsAnErrorOnlyWhenAdaptiveSizingIsSetOn() {
        assertThat(SequenceSettings.builder().blockSize(200_000).build().adaptive()).isTrue();
        assertThatThrownBy(() -> SequenceSettings.builder().blockSize(200_000).adaptive(true).build())
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("'adaptive.max-block-size'").hasMessageContaining(">= block-size (200000)");
    }

    @Test
    void rejectsZeroAndNegativeBlockSizesNamingTheSetting() {
        assertThatThrownBy(() -> SequenceSettings.builder().blockSize(0))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("'block-size'").hasMessageContaining(": 0").hasMessageContaining(">= 1");
        assertThatThrownBy(() -> SequenceSettings.builder().blockSize(-5))
                .isInstanceOfSatisfying(SequenceConfigurationException.class, e -> {
                    assertThat(e.setting()).isEqualTo("block-size");
                    assertThat(e.value()).isEqualTo(-5);
                });
    }

    @Test
    void rejectsLowWatermarkAtOrAboveBlockSize() {
        assertThatThrownBy(() -> SequenceSettings.builder().blockSize(100).lowWatermark(100).build())
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("'low-watermark'").hasMessageContaining("< block-size (100)");
        assertThatThrownBy(() -> SequenceSettings.builder().lowWatermark(-1))
                .hasMessageContaining("'low-watermark'");
    }

    @Test
    void implicitLowWatermarkFollowsTheBlockSizeAcrossToBuilder() {
        SequenceSettings small = SequenceSettings.defaults().toBuilder().blockSize(100).build();
        assertThat(small.lowWatermark()).isEqualTo(25);
        SequenceSettings explicit = SequenceSettings.builder().blockSize(100).lowWatermark(10).build();
        assertThat(explicit.toBuilder().blockSize(200).build().lowWatermark()).isEqualTo(10);
    }

    @Test
    void rejectsBadTimeoutsAndValueRanges() {
        assertThatThrownBy(() -> SequenceSettings.builder().acquireTimeout(Duration.ZERO))
                .hasMessageContaining("'acquire-timeout'");
        assertThatThrownBy(() -> SequenceSettings.builder().acquireTimeout(Duration.ofMillis(-1)))
                .hasMessageContaining("'acquire-timeout'");
        assertThatThrownBy(() -> SequenceSettings.builder().initialValue(-1))
                .hasMessageContaining("'initial-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().maxValue(Long.MAX_VALUE))
                .hasMessageContaining("'max-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().maxValue(0)).hasMessageContaining("'max-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().initialValue(10).maxValue(9).build())
                .hasMessageContaining("'initial-value'").hasMessageContaining("<= max-value (9)");
        assertThatThrownBy(() -> SequenceSettings.builder().blockSize(500).adaptive(true).adaptiveMaxBlockSize(499)
                .build()).hasMessageContaining("'adaptive.max-block-size'");
        // Without adaptive sizing the adaptive maximum is not used, so a larger block is fine.
        assertThat(SequenceSettings.builder().blockSize(1_000_000).build().blockSize()).isEqualTo(1_000_000);
        assertThatThrownBy(() -> SequenceSettings.builder().adaptiveTargetRefillInterval(Duration.ZERO))
                .hasMessageContaining("'adaptive.target-refill-interval'");
        assertThatThrownBy(() -> SequenceSettings.builder().strategy(null)).hasMessageContaining("'strategy'");
    }

    @Test
    void equalSettingsAreEqual() {
        assertThat(SequenceSettings.builder().blockSize(10).build())
                .isEqualTo(SequenceSettings.builder().blockSize(10).build())
                .isNotEqualTo(SequenceSettings.builder().blockSize(11).build());
    }

    @Test
    void capacityUsedIsTheShareOfTheRangeBelowANextValue() {
        SequenceSettings settings = SequenceSettings.builder().initialValue(1).maxValue(100).build();
        assertThat(settings.capacityUsedBelow(1)).isZero();
        assertThat(settings.capacityUsedBelow(51)).isEqualTo(0.5);
        assertThat(settings.capacityUsedBelow(101)).isEqualTo(1.0);
        assertThat(settings.capacityUsedBelow(-5)).as("below the initial value").isZero();
        assertThat(settings.capacityUsedBelow(Long.MAX_VALUE)).isEqualTo(1.0);
        assertThat(SequenceSettings.builder().initialValue(0).build().capacityUsedBelow(Long.MAX_VALUE))
                .as("the widest range, no overflow").isEqualTo(1.0);
    }
}
