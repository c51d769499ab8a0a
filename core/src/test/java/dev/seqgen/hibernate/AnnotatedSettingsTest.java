package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.SettingTest;
import dev.seqgen.KeyOrder;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.GeneratorSettings.PlainSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The naming and merging rules documented on {@link SeqgenGenerator}, without Hibernate. */
class AnnotatedSettingsTest {

    @SeqgenGenerator
    private static Object bare;

    @SeqgenGenerator(sequence = "invoices", strategy = Strategy.SYNC, initialValue = 100, maxValue = 999_999)
    private static Object tuned;

    @SeqgenGenerator(strategy = {Strategy.SYNC, Strategy.BATCH})
    private static Object twoStrategies;

    /** Every attribute away from its default (the values of SettingTest.NON_DEFAULT). */
    @SeqgenGenerator(strategy = Strategy.BATCH, keyOrder = KeyOrder.BIT_REVERSED, initialValue = 100,
            maxValue = 999_999)
    private static Object everySetting;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "Invoice, invoice",
        "PurchaseOrder, purchase_order",
        "HTTPRequestLog, http_request_log",
        "Order2Item, order2_item",
        "already_snake, already_snake",
        "Outer$Inner, outer_inner"
    })
    void entityNamesBecomeSnakeCase(String entityName, String sequenceName) {
        assertThat(AnnotatedSettings.snakeCase(entityName)).isEqualTo(sequenceName);
    }

    @Test
    void theNameComesFromTheAnnotationThenGeneratedValueThenTheEntity() throws Exception {
        assertThat(AnnotatedSettings.sequenceName(annotation("tuned"), "orders", "Invoice")).isEqualTo("invoices");
        assertThat(AnnotatedSettings.sequenceName(annotation("bare"), "orders", "Invoice")).isEqualTo("orders");
        assertThat(AnnotatedSettings.sequenceName(annotation("bare"), "", "PurchaseOrder"))
                .isEqualTo("purchase_order");
    }

    @Test
    void unsetAttributesTakeTheRegistrysSettings() throws Exception {
        SequenceSettings defaults = SequenceSettings.builder().blockSize(500).lowWatermark(100).build();
        assertThat(resolve("bare", defaults, defaults)).isEqualTo(defaults);
    }

    @Test
    void setAttributesWinOverDefaultsAndTheTuningIsTheConfigurations() throws Exception {
        SequenceSettings defaults = SequenceSettings.builder().blockSize(500).lowWatermark(100)
                .acquireTimeout(Duration.ofMillis(750)).initialValue(7).build();
        SequenceSettings settings = resolve("tuned", defaults, defaults);
        assertThat(settings.strategy()).isEqualTo(Strategy.SYNC);
        assertThat(settings.initialValue()).isEqualTo(100);
        assertThat(settings.maxValue()).isEqualTo(999_999);
        assertThat(settings.blockSize()).as("configured").isEqualTo(500);
        assertThat(settings.lowWatermark()).as("configured").isEqualTo(100);
        assertThat(settings.acquireTimeout()).as("configured").isEqualTo(Duration.ofMillis(750));
    }

    /** Tuning set for the sequence applies beside the attributes and overrides none of them: nothing to log. */
    @Test
    void tuningSetForTheSequenceAppliesBesideTheAttributes() throws Exception {
        SequenceSettings defaults = SequenceSettings.defaults();
        SequenceSettings configured = defaults.toBuilder().blockSize(40).lowWatermark(3).adaptive(false).build();
        Map<Setting, String> sources = Map.of(Setting.BLOCK_SIZE, "seqgen.sequences.invoices.block-size",
                Setting.LOW_WATERMARK, "seqgen.sequences.invoices.low-watermark",
                Setting.ADAPTIVE_ENABLED, "seqgen.sequences.invoices.adaptive.enabled");
        SequenceSettings settings = AnnotatedSettings.resolve(annotation("tuned"), configured, defaults, sources,
                SequenceSettings.LARGEST_MAX_VALUE);
        assertThat(settings).isEqualTo(configured.toBuilder().strategy(Strategy.SYNC).initialValue(100)
                .maxValue(999_999).build());
        assertThat(AnnotatedSettings.overridden(annotation("tuned"), configured, defaults, sources)).isEmpty();
    }

    @Test
    void valuesConfiguredForTheSequenceWinOverAttributes() throws Exception {
        SequenceSettings defaults = SequenceSettings.defaults();
        SequenceSettings configured = defaults.toBuilder().initialValue(9000).strategy(Strategy.BATCH).build();
        SequenceSettings settings = resolve("tuned", configured, defaults);
        assertThat(settings.strategy()).isEqualTo(Strategy.BATCH);
        assertThat(settings.initialValue()).isEqualTo(9000);
        assertThat(settings.maxValue()).as("not configured for the sequence: the attribute").isEqualTo(999_999);
        Map<Setting, String> sources = Map.of(Setting.STRATEGY, "seqgen.sequences.invoices.strategy",
                Setting.INITIAL_VALUE, "seqgen.sequences.invoices.initial-value");
        assertThat(AnnotatedSettings.overridden(annotation("tuned"), configured, defaults, sources)).as("for the log")
                .isEqualTo("seqgen.sequences.invoices.strategy=BATCH overrides the annotation's strategy=SYNC;"
                        + " seqgen.sequences.invoices.initial-value=9000 overrides the annotation's initialValue=100");
        assertThat(AnnotatedSettings.overridden(annotation("tuned"), configured, defaults, Map.of()))
                .as("given to a registry builder that was not told where the values came from")
                .isEqualTo("the registry's strategy=BATCH for the sequence overrides the annotation's strategy=SYNC;"
                        + " the registry's initial-value=9000 for the sequence overrides the annotation's"
                        + " initialValue=100");
        assertThat(AnnotatedSettings.overridden(annotation("tuned"), defaults, defaults, Map.of()))
                .as("nothing overridden").isEmpty();
    }

    /**
     * A value set for the sequence wins over the attribute whatever it is, the default's value too (as
     * {@code seqgen.sequences.x.strategy} set to the default strategy), and is said so for the log; a value the
     * sequence has from the defaults, not set for it, leaves the attribute in force.
     */
    @Test
    void aValueSetForTheSequenceEqualToTheDefaultOverridesTheAttribute() throws Exception {
        SequenceSettings defaults = SequenceSettings.defaults();
        SequenceSettings configured = defaults.toBuilder().initialValue(9000).build();
        Map<Setting, String> sources = Map.of(Setting.STRATEGY, "seqgen.sequences.invoices.strategy",
                Setting.MAX_VALUE, "seqgen.sequences.invoices.max-value");
        SequenceSettings settings = AnnotatedSettings.resolve(annotation("tuned"), configured, defaults, sources,
                SequenceSettings.LARGEST_MAX_VALUE);
        assertThat(settings.strategy()).as("set for the sequence, the default's").isEqualTo(defaults.strategy());
        assertThat(settings.maxValue()).as("set for the sequence, the default's").isEqualTo(defaults.maxValue());
        assertThat(settings.initialValue()).as("not set for the sequence: the attribute").isEqualTo(100);
        assertThat(AnnotatedSettings.overridden(annotation("tuned"), configured, defaults, sources)).isEqualTo(
                "seqgen.sequences.invoices.strategy=" + defaults.strategy() + " overrides the annotation's"
                        + " strategy=SYNC; seqgen.sequences.invoices.max-value=" + defaults.maxValue()
                        + " overrides the annotation's maxValue=999999");
    }

    @Test
    void plainHibernateSettingsTellWhichValuesWereSetForASequence() {
        PlainSettings plain = PlainSettings.from(Map.of("seqgen.defaults.block-size", "20",
                "seqgen.sequences.orders.strategy", "async-batch", "seqgen.sequences.orders.initial-value", "7"));
        assertThat(plain.sources.get("orders")).containsExactly(
                Map.entry(Setting.STRATEGY, "seqgen.sequences.orders.strategy"),
                Map.entry(Setting.INITIAL_VALUE, "seqgen.sequences.orders.initial-value"));
    }

    @Test
    void plainHibernateReadsTheIdleTimeoutOfSeries() {
        assertThat(PlainSettings.from(Map.of()).seriesIdleTimeout).as("the registry's default").isNull();
        assertThat(PlainSettings.from(Map.of(SeqgenHibernate.SERIES_IDLE_TIMEOUT, "3m")).seriesIdleTimeout)
                .isEqualTo(Duration.ofMinutes(3));
        assertThat(PlainSettings.from(Map.of(SeqgenHibernate.SERIES_IDLE_TIMEOUT, "PT90S")).seriesIdleTimeout)
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(PlainSettings.from(Map.of(SeqgenHibernate.SERIES_IDLE_TIMEOUT, Duration.ZERO)).seriesIdleTimeout)
                .isZero();
        for (String wrong : List.of("soon", "-PT1M")) {
            assertThatThrownBy(() -> PlainSettings.from(Map.of(SeqgenHibernate.SERIES_IDLE_TIMEOUT, wrong)))
                    .isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("'seqgen.series.idle-timeout'").hasMessageContaining("0 (never released)");
        }
    }

    @Test
    void intIdsAreCappedAtTheIntRange() throws Exception {
        SequenceSettings settings = AnnotatedSettings.resolve(annotation("bare"), SequenceSettings.defaults(),
                SequenceSettings.defaults(), Map.of(), SequenceSettings.INT_MAX_VALUE);
        assertThat(settings.maxValue()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void everySettingHasItsAttributeAndAnUnsetAttributeGivesNothing() throws Exception {
        SequenceSettings fromAnnotation = resolve("everySetting", SequenceSettings.defaults(),
                SequenceSettings.defaults());
        SequenceSettings.Builder expected = SequenceSettings.builder();
        for (Setting setting : Setting.values()) {
            if (setting.annotationAttribute().isPresent()) {
                setting.apply(expected, SettingTest.NON_DEFAULT.get(setting));
                assertThat(AnnotatedSettings.attribute(annotation("bare"), setting)).as(setting.key()).isNull();
            }
        }
        assertThat(fromAnnotation).as("the attributes' settings, and the rest (configuration only) as by default")
                .isEqualTo(expected.build());
    }

    @Test
    void plainHibernateSettingsTakeEveryKeyForTheDefaultsAndForOneSequence() {
        for (Setting setting : Setting.values()) {
            Object expected = setting.valueIn(SettingTest.nonDefault(setting).build());
            Map<String, Object> keys = new java.util.HashMap<>();
            SettingTest.example(setting).forEach((key, text) -> {
                keys.put(SeqgenHibernate.DEFAULTS_PREFIX + key.key(), text);
                keys.put(SeqgenHibernate.SEQUENCES_PREFIX + "orders." + key.key(), text);
            });
            PlainSettings plain = PlainSettings.from(keys);
            assertThat(setting.valueIn(plain.defaults)).as(setting.key()).isEqualTo(expected);
            assertThat(setting.valueIn(plain.perSequence.get("orders"))).as(setting.key()).isEqualTo(expected);
        }
        assertThatThrownBy(() -> PlainSettings.from(Map.of("seqgen.sequences.orders.blok-size", "5")))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("'seqgen.sequences.orders.blok-size'").hasMessageContaining(Setting.keys());
        assertThatThrownBy(() -> PlainSettings.from(Map.of("seqgen.defaults.acquire-timeout", "soon")))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("'seqgen.defaults.acquire-timeout'");
    }

    @Test
    void twoStrategiesAreRejected() {
        assertThatThrownBy(() -> resolve("twoStrategies", SequenceSettings.defaults(), SequenceSettings.defaults()))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("at most one strategy");
    }

    private static SequenceSettings resolve(String field, SequenceSettings configured, SequenceSettings defaults)
            throws Exception {
        return AnnotatedSettings.resolve(annotation(field), configured, defaults, Map.of(),
                SequenceSettings.LARGEST_MAX_VALUE);
    }

    private static SeqgenGenerator annotation(String field) throws Exception {
        return AnnotatedSettingsTest.class.getDeclaredField(field).getAnnotation(SeqgenGenerator.class);
    }
}
