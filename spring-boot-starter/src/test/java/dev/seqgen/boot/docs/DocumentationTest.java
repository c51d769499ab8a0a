package dev.seqgen.boot.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Setting;
import dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The documentation against what the build generates: every property of the configuration metadata is in the
 * properties table of docs/spring-boot.md, every meter in the table of docs/operations.md, and every property has a
 * description for the IDE.
 */
class DocumentationTest {

    /** The properties are documented in the Spring Boot guide, the meters in the operations guide. */
    private static final Path SPRING_BOOT_GUIDE = Path.of("../docs/spring-boot.md");
    private static final Path OPERATIONS_GUIDE = Path.of("../docs/operations.md");
    private static final Path SETTINGS_TABLE = Path.of("../docs/settings.md");

    @Test
    void everySeqgenPropertyHasADescriptionForTheIde() throws IOException {
        List<JsonNode> properties = seqgenProperties();
        assertThat(properties).as("17 properties of the starter's own, and one seqgen.defaults.* per setting")
                .hasSize(17 + Setting.values().length);
        assertThat(properties).allSatisfy(property -> assertThat(property.path("description").asString())
                .as(property.path("name").asString()).isNotBlank());
    }

    @Test
    void theSpringBootGuideDocumentsEveryPropertyOfTheMetadata() throws IOException {
        String guide = Files.readString(SPRING_BOOT_GUIDE);
        for (JsonNode property : seqgenProperties()) {
            String name = property.path("name").asString();
            String documented = name.equals("seqgen.sequences") ? "`seqgen.sequences.<name>.*`"
                    : name.startsWith("seqgen.defaults.") ? "`seqgen.defaults.<key>`" : "`" + name + "`";
            assertThat(guide).as(name).contains("| " + documented + " |");
        }
    }

    @Test
    void theOperationsGuideDocumentsEveryMeter() throws IOException, IllegalAccessException {
        String guide = Files.readString(OPERATIONS_GUIDE);
        List<String> meters = new ArrayList<>();
        for (Field field : MicrometerMetricsTrackerFactory.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
                    && !field.getName().equals("PREFIX")) {
                meters.add((String) field.get(null));
            }
        }
        assertThat(meters).as("meters and observations").hasSize(13);
        assertThat(meters).allSatisfy(meter -> assertThat(guide).contains("| `" + meter + "` |"));
    }

    /**
     * Every setting of core's one description is a {@code seqgen.defaults.*} property whose description ends with
     * the setting's default, and nothing else is under {@code seqgen.defaults}.
     */
    @Test
    void everySettingIsADefaultsPropertyThatStatesItsDefault() throws IOException {
        List<JsonNode> properties = seqgenProperties();
        for (Setting setting : Setting.values()) {
            String name = "seqgen.defaults." + setting.key();
            JsonNode property = properties.stream().filter(p -> p.path("name").asString().equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError(name + " is not in the configuration metadata"));
            assertThat(property.path("description").asString()).as(name)
                    .endsWith("Default: " + setting.defaultText() + ".");
        }
        assertThat(properties.stream().map(p -> p.path("name").asString())
                .filter(name -> name.startsWith("seqgen.defaults.")))
                .containsExactlyInAnyOrder(Arrays.stream(Setting.values()).map(s -> "seqgen.defaults." + s.key())
                        .toArray(String[]::new));
    }

    /**
     * docs/settings.md has one row per setting, in the order of {@link Setting}, with its key, its default, its
     * rule and its annotation attribute as the code has them.
     */
    @Test
    void theSettingsTableHasOneRowPerSettingAsTheCodeHasIt() throws IOException {
        List<String[]> rows = Files.readAllLines(SETTINGS_TABLE).stream().filter(line -> line.startsWith("| `"))
                .map(line -> Arrays.stream(line.substring(1, line.length() - 1).split(" \\| "))
                        .map(cell -> cell.strip().replace("`", "")).toArray(String[]::new))
                .toList();
        assertThat(rows).extracting(row -> row[0]).as("keys")
                .containsExactly(Arrays.stream(Setting.values()).map(Setting::key).toArray(String[]::new));
        for (String[] row : rows) {
            Setting setting = Setting.find(row[0]).orElseThrow();
            assertThat(row[1]).as(row[0] + ": default").isEqualTo(setting.defaultText());
            assertThat(setting.allowed()).as(row[0] + ": allowed").startsWith(row[2]);
            assertThat(row[3]).as(row[0] + ": annotation attribute")
                    .isEqualTo(setting.annotationAttribute().orElse("none"));
        }
    }

    private static List<JsonNode> seqgenProperties() throws IOException {
        try (InputStream in = DocumentationTest.class
                .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("metadata generated by spring-boot-configuration-processor").isNotNull();
            List<JsonNode> properties = new ArrayList<>();
            for (JsonNode property : JsonMapper.builder().build().readTree(in).path("properties")) {
                if (property.path("name").asString().startsWith("seqgen.")) {
                    properties.add(property);
                }
            }
            return properties;
        }
    }
}
