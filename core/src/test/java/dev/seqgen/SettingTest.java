package dev.seqgen;

import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one description of the settings, and that every annotation carries an attribute for each. */
public class SettingTest {

    /** A value for each setting that differs from its default, as text in a properties file would give it. */
    public static final Map<Setting, String> NON_DEFAULT = Map.ofEntries(
            Map.entry(Setting.STRATEGY, "batch"),
            Map.entry(Setting.KIND, "native-sequence"),
            Map.entry(Setting.KEY_ORDER, "bit-reversed"),
            Map.entry(Setting.SKIP_RANGE, "1..99999"),
            Map.entry(Setting.BLOCK_SIZE, "40"),
            Map.entry(Setting.LOW_WATERMARK, "3"),
            Map.entry(Setting.ACQUIRE_TIMEOUT, "750ms"),
            Map.entry(Setting.INITIAL_VALUE, "100"),
            Map.entry(Setting.MAX_VALUE, "999999"),
            Map.entry(Setting.ADAPTIVE_ENABLED, "false"),
            Map.entry(Setting.ADAPTIVE_MAX_BLOCK_SIZE, "400"),
            Map.entry(Setting.ADAPTIVE_TARGET_REFILL_INTERVAL, "PT0.25S"),
            Map.entry(Setting.ALLOW_WEAKER_STRATEGY, "true"));

    /** The settings an example of {@link #NON_DEFAULT} needs beside it: a skip range is for bit-reversed keys. */
    public static final Map<Setting, Map<Setting, String>> NEEDS = Map.of(
            Setting.SKIP_RANGE, Map.of(Setting.KEY_ORDER, "bit-reversed"));

    /**
     * Returns the example of a setting with the settings it needs, those first: the text to write as properties.
     *
     * @param setting a setting
     * @return setting to text, in the order to apply
     */
    public static Map<Setting, String> example(Setting setting) {
        Map<Setting, String> example = new java.util.LinkedHashMap<>(NEEDS.getOrDefault(setting, Map.of()));
        example.put(setting, NON_DEFAULT.get(setting));
        return example;
    }

    /**
     * Returns a builder holding what the example of {@code setting} needs, and not the setting itself.
     *
     * @param setting a setting
     * @return a builder with the settings it needs
     */
    public static SequenceSettings.Builder needs(Setting setting) {
        SequenceSettings.Builder builder = SequenceSettings.builder();
        NEEDS.getOrDefault(setting, Map.of()).forEach((needed, text) -> needed.apply(builder, text));
        return builder;
    }

    /**
     * Returns a builder holding the example of {@code setting} with what it needs.
     *
     * @param setting a setting
     * @return a builder with the setting away from its default
     */
    public static SequenceSettings.Builder nonDefault(Setting setting) {
        return setting.apply(needs(setting), NON_DEFAULT.get(setting));
    }

    @Test
    void everySettingHasANonDefaultExampleHere() {
        assertThat(NON_DEFAULT).containsOnlyKeys(Setting.values());
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void textSetsTheSettingAndReadsBackAsItsType(Setting setting) {
        SequenceSettings settings = nonDefault(setting).build();
        Object value = setting.valueIn(settings);
        assertThat(value).isInstanceOf(setting.type()).isNotEqualTo(setting.defaultValue());
        assertThat(setting.apply(needs(setting), value).build()).as("a value of the type sets it too")
                .isEqualTo(settings);
        assertThat(Setting.find(setting.key())).contains(setting);
    }

    @Test
    void defaultsAreThoseOfTheSettings() {
        for (Setting setting : Setting.values()) {
            assertThat(setting.defaultValue()).as(setting.key()).isEqualTo(setting.valueIn(SequenceSettings.defaults()));
        }
        assertThat(Setting.BLOCK_SIZE.defaultValue()).isEqualTo(1000);
        assertThat(Setting.LOW_WATERMARK.defaultValue()).isEqualTo(250);
        assertThat(Setting.ACQUIRE_TIMEOUT.defaultValue()).isEqualTo(Duration.ofSeconds(5));
        assertThat(Setting.STRATEGY.defaultValue()).isEqualTo(Strategy.ASYNC_BATCH);
    }

    @Test
    void theDefaultAsDocumentedIsTheDefault() {
        for (Setting setting : Setting.values()) {
            Object value = setting.defaultValue();
            String expected = value instanceof Duration duration ? duration.toSeconds() + "s"
                    : value instanceof Enum<?> constant ? constant.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                    : String.valueOf(value);
            if (setting == Setting.LOW_WATERMARK || setting == Setting.ADAPTIVE_ENABLED || setting == Setting.KIND) {
                continue; // documented as the rule that derives it from other settings or from the registry
            }
            assertThat(setting.defaultText()).as(setting.key()).isEqualTo(expected);
        }
        assertThat(Setting.LOW_WATERMARK.defaultText()).contains("quarter of the block size");
        assertThat(Setting.ADAPTIVE_ENABLED.defaultText()).contains("on for async-batch");
        assertThat(Setting.KIND.defaultText()).contains("registry's store: table");
    }

    @Test
    void settingsPrintAndCompareByEverySetting() {
        SequenceSettings settings = SequenceSettings.builder().blockSize(40).build();
        assertThat(settings.toString()).startsWith("SequenceSettings{strategy=ASYNC_BATCH, ")
                .contains(", block-size=40, ").contains("adaptive.target-refill-interval=PT1S").endsWith("}");
        for (Setting setting : Setting.values()) {
            assertThat(settings.toString()).contains(setting.key() + "=" + setting.valueIn(settings));
        }
        for (Setting setting : Setting.values()) {
            SequenceSettings changed = nonDefault(setting).build();
            assertThat(changed).as(setting.key()).isNotEqualTo(SequenceSettings.defaults());
            assertThat(nonDefault(setting).build())
                    .isEqualTo(changed).hasSameHashCodeAs(changed);
        }
        assertThat(SequenceSettings.builder().lowWatermark(250).build()).as("set to the default, still set")
                .isNotEqualTo(SequenceSettings.defaults());
    }

    @Test
    void durationsAreReadAsMillisecondsWithAUnitOrInIso8601() {
        for (Map.Entry<String, Duration> text : Map.of("250", Duration.ofMillis(250), "250ms", Duration.ofMillis(250),
                "5s", Duration.ofSeconds(5), "2m", Duration.ofMinutes(2), "1h", Duration.ofHours(1),
                "PT0.5S", Duration.ofMillis(500), " 7 s ", Duration.ofSeconds(7)).entrySet()) {
            assertThat(Setting.ACQUIRE_TIMEOUT.apply(SequenceSettings.builder(), text.getKey()).build().acquireTimeout())
                    .as(text.getKey()).isEqualTo(text.getValue());
        }
        assertThat(Setting.STRATEGY.apply(SequenceSettings.builder(), "ASYNC_BATCH").build().strategy())
                .isEqualTo(Strategy.ASYNC_BATCH);
        assertThat(Setting.STRATEGY.apply(SequenceSettings.builder(), " Sync ").build().strategy())
                .isEqualTo(Strategy.SYNC);
    }

    @Test
    void unreadableValuesAndBrokenRulesNameTheKey() {
        assertThatThrownBy(() -> Setting.BLOCK_SIZE.apply(SequenceSettings.builder(), "lots"))
                .isInstanceOfSatisfying(SequenceConfigurationException.class, e -> {
                    assertThat(e.setting()).isEqualTo("block-size");
                    assertThat(e.value()).isEqualTo("lots");
                    assertThat(e.allowed()).isEqualTo("an integer >= 1");
                });
        assertThatThrownBy(() -> Setting.BLOCK_SIZE.apply(SequenceSettings.builder(), 0))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'block-size'");
        assertThatThrownBy(() -> Setting.BLOCK_SIZE.apply(SequenceSettings.builder(), 5_000_000_000L))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'block-size'");
        assertThatThrownBy(() -> Setting.ACQUIRE_TIMEOUT.apply(SequenceSettings.builder(), "soon"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'acquire-timeout'")
                .hasMessageContaining("500ms");
        assertThatThrownBy(() -> Setting.ADAPTIVE_ENABLED.apply(SequenceSettings.builder(), "yes"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("true or false");
        assertThatThrownBy(() -> Setting.STRATEGY.apply(SequenceSettings.builder(), "fast"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("one of sync, async");
        assertThatThrownBy(() -> Setting.MAX_VALUE.apply(SequenceSettings.builder(), null))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'max-value'");
        assertThat(Setting.find("block_size")).isEmpty();
        assertThat(Setting.keys()).startsWith("strategy, ").contains(", block-size, low-watermark, ")
                .isEqualTo(String.join(", ", Arrays.stream(Setting.values()).map(Setting::key).toList()));
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void bothAnnotationsHaveAnUnsetAttributeForEverySettingThatNamesOne(Setting setting) throws Exception {
        if (setting.annotationAttribute().isEmpty()) {
            return;
        }
        for (Class<?> annotation : new Class<?>[] {SeqgenGenerator.class, SeqgenNumber.class}) {
            if (annotation == SeqgenNumber.class && setting == Setting.KEY_ORDER) {
                continue; // ids only: numbers are for people
            }
            Method attribute = annotation.getMethod(setting.annotationAttribute().get());
            Object unset = attribute.getDefaultValue();
            assertThat(unset).as(annotation.getSimpleName() + "." + attribute.getName()).satisfiesAnyOf(
                    value -> assertThat(value).isIn(SeqgenGenerator.UNSET, (int) SeqgenGenerator.UNSET),
                    value -> assertThat(value.getClass().isArray() && java.lang.reflect.Array.getLength(value) == 0)
                            .isTrue());
            Class<?> valueType = attribute.getReturnType().isArray() ? attribute.getReturnType().getComponentType()
                    : attribute.getReturnType();
            assertThat(box(valueType))
                    .as("the type of " + annotation.getSimpleName() + "." + attribute.getName())
                    .isEqualTo(setting.type());
        }
    }

    private static Class<?> box(Class<?> type) {
        return type == int.class ? Integer.class : type == long.class ? Long.class : type;
    }

    /**
     * The annotations declare what the code's correctness depends on, the strategy (SYNC: gapless), the key order
     * and the range of values; tuning (block, refill point, acquire timeout, adaptive sizing) is configuration only,
     * so that one place sets it and no attribute competes with it.
     */
    @Test
    void onlyWhatTheCodeDependsOnHasAnAnnotationAttribute() {
        assertThat(Arrays.stream(Setting.values()).filter(setting -> setting.annotationAttribute().isPresent()))
                .containsExactly(Setting.STRATEGY, Setting.KEY_ORDER, Setting.INITIAL_VALUE, Setting.MAX_VALUE);
    }

    @Test
    void theAnnotationsHaveNoSettingAttributeThatIsNotASetting() {
        for (Class<?> annotation : new Class<?>[] {SeqgenGenerator.class, SeqgenNumber.class}) {
            assertThat(Arrays.stream(annotation.getDeclaredMethods()).map(Method::getName)
                    .filter(name -> !Set.of("sequence", "seriesBy", "perTenant", "format").contains(name)))
                    .as(annotation.getSimpleName())
                    .containsExactlyInAnyOrder(Arrays.stream(Setting.values())
                            .filter(setting -> annotation == SeqgenGenerator.class || setting != Setting.KEY_ORDER)
                            .map(Setting::annotationAttribute)
                            .flatMap(java.util.Optional::stream).toArray(String[]::new));
        }
    }
}
