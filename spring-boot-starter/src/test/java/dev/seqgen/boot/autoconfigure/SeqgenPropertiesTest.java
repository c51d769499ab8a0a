package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.SettingTest;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.SequenceProperties;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The Spring properties of a sequence against core's one description of the settings: a property per setting,
 * found by its key, of its type, unset until configured, and bound from the key as a user writes it.
 */
class SeqgenPropertiesTest {

    @ParameterizedTest
    @EnumSource(Setting.class)
    void everySettingHasAPropertyOfItsTypeUnsetByDefault(Setting setting) {
        BeanWrapper properties = PropertyAccessorFactory.forBeanPropertyAccess(new SequenceProperties());
        String path = SeqgenSettings.propertyPath(setting);
        assertThat(properties.isReadableProperty(path)).as(path).isTrue();
        assertThat(properties.isWritableProperty(path)).as(path).isTrue();
        assertThat(properties.getPropertyType(path)).as(path).isEqualTo(setting.type());
        assertThat(SeqgenSettings.value(new SequenceProperties(), setting)).as("unset: inherited").isNull();
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void theKeyAsAUserWritesItSetsTheSetting(Setting setting) {
        Map<String, String> properties = new java.util.HashMap<>();
        SettingTest.example(setting).forEach((key, text) -> properties.put("seqgen.defaults." + key.key(), text));
        SequenceProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                .bind("seqgen.defaults", SequenceProperties.class).get();
        SequenceSettings settings = SeqgenSettings.defaults(bound);
        assertThat(setting.valueIn(settings)).as(setting.key())
                .isEqualTo(setting.valueIn(SettingTest.nonDefault(setting).build()))
                .isNotEqualTo(setting.defaultValue());
    }

    @Test
    void keysBecomeBeanPropertyPaths() {
        assertThat(SeqgenSettings.propertyPath(Setting.ADAPTIVE_MAX_BLOCK_SIZE)).isEqualTo("adaptive.maxBlockSize");
        assertThat(SeqgenSettings.propertyPath(Setting.ACQUIRE_TIMEOUT)).isEqualTo("acquireTimeout");
        assertThat(SeqgenSettings.propertyPath(Setting.STRATEGY)).isEqualTo("strategy");
    }
}
