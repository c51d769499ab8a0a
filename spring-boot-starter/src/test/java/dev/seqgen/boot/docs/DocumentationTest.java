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
        assertThat(meters).as("meters and observations").hasSize(15);
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
                    .startsWith(setting.annotationAttribute().orElse("none"));
        }
    }

    /**
     * Types of other libraries (the JDK, Hibernate, Spring, Micrometer, the Spanner client) the docs name; a name
     * in backticks that is neither one of these nor a type of this repository is a stale seqgen name.
     */
    private static final java.util.Set<String> OTHER_LIBRARIES_TYPES = java.util.Set.of(
            "AbortedDueToConcurrentModificationException", "AbortedException", "AnnotationBasedGenerator",
            "AvailableSettings", "BeforeConvertCallback", "BeforeSaveCallback", "DataJdbcTest", "DataJpaTest",
            "DataSource", "DataSourceAutoConfiguration", "DatabaseClient", "DataSourceUtils", "Embedded",
            "IdValueSource", "JdbcAggregateTemplate", "JdbcPostgresDialect", "Persistable", "PersistentEntity", "SmartLifecycle", "Table",
            "DependsOnDatabaseInitialization", "DriverManager", "EntityManagerFactory", "ExecuteBatchDml", "Future",
            "GeneratedValue",
            "GenerationType", "HibernatePropertiesCustomizer", "Id", "IllegalArgumentException",
            "IllegalStateException", "InsertCoordinatorStandard", "Integer", "Integrator", "Interceptor", "Internal",
            "MariaDbDialect", "MySqlDialect",
            "JdbcAbortedException", "JdbcSqlException", "JdbcTest", "LocalDate", "LocalDateTime", "Long",
            "MappedSuperclass", "MeterRegistry",
            "MockSpannerServiceImpl", "NullPointerException", "Observation", "ObservationRegistry",
            "PreInsertEventListener", "Primary", "TenantId", "MultiTenantConnectionProvider",
            "CurrentTenantIdentifierResolver", "ConnectionProvider", "ApplicationRunner", "ReadinessState",
            "ReentrantLock", "SequenceGenerator", "ServiceContributor", "SpannerPostgreSQLDialect",
            "SpringBootTest", "StatelessSession", "String", "System", "Thread", "TransactionContext",
            "TransactionManager", "TransactionTemplate", "Transactional",
            "AbstractJdbcConfiguration", "AutoConfigureDataJdbc", "AutoConfigureJdbc", "BeforeConvertEvent",
            "BeforeSaveEvent", "Configuration", "ImportAutoConfiguration", "Ordered", "PostPersist", "PrePersist",
            "SpringBootApplication", "EventListenerRegistry", "PostInsertEvent", "PostInsertEventListener",
            "PreInsertEvent",
            // an entity name in an example of how names become sequence names
            "HTTPRequestLog",
            // the aggregates of spring-data-examples' jdbc/basics
            "LegoSet", "Manual");

    /**
     * Every type name the README, CONTRIBUTING and docs/ write in backticks ({@code `JdbcSequenceStore`},
     * {@code `KeyOrder.BIT_REVERSED.counter(key)`}, {@code `@SeqgenNumber`}) is a type of this repository's sources
     * or a named type of another library: a renamed or removed class leaves no stale name in the docs.
     */
    @Test
    void everyTypeTheDocsNameExists() throws IOException {
        java.util.Set<String> types = new java.util.HashSet<>();
        java.util.regex.Pattern declaration = java.util.regex.Pattern
                .compile("(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");
        try (var files = Files.walk(Path.of(".."))) {
            for (Path source : files.filter(file -> file.toString().endsWith(".java")
                    && !file.toString().contains("/target/")).toList()) {
                types.add(source.getFileName().toString().replace(".java", ""));
                java.util.regex.Matcher declared = declaration.matcher(Files.readString(source));
                while (declared.find()) {
                    types.add(declared.group(1));
                }
            }
        }
        assertThat(types).as("the sources were found").contains("JdbcSequenceStore", "SeqgenAutoConfiguration");
        java.util.regex.Pattern named = java.util.regex.Pattern
                .compile("`@?([A-Z][A-Za-z0-9]+)(?:[.#][^`\\n]*)?`");
        List<Path> pages = new ArrayList<>(List.of(Path.of("../README.md"), Path.of("../CONTRIBUTING.md")));
        try (var docs = Files.list(Path.of("../docs"))) {
            docs.filter(page -> page.toString().endsWith(".md") && !page.endsWith("changelog.md"))
                    .forEach(pages::add);
        }
        List<String> unknown = new ArrayList<>();
        java.util.Set<String> checked = new java.util.HashSet<>();
        for (Path page : pages) {
            java.util.regex.Matcher matcher = named.matcher(Files.readString(page));
            while (matcher.find()) {
                String type = matcher.group(1);
                boolean constant = type.chars().noneMatch(Character::isLowerCase); // SYNC, ASYNC_BATCH, URL
                if (!constant && !types.contains(type) && !OTHER_LIBRARIES_TYPES.contains(type)) {
                    unknown.add(page.getFileName() + ": " + matcher.group());
                }
                checked.add(type);
            }
        }
        assertThat(checked).as("names the check read").contains("JdbcSequenceStore", "SeqgenNumber", "KeyOrder");
        assertThat(unknown).as("type names in the docs that no source declares").isEmpty();
    }

    /**
     * Every list of settings' keys the README and docs/ write (four or more keys in backticks, one after the other:
     * the README's settings, the plain Hibernate keys of docs/hibernate-generator.md) names every setting, in the
     * order of {@link Setting}: a new setting cannot be left out of a list. A list that ends in an ellipsis gives
     * examples, each of which must be a key.
     */
    @Test
    void everyListOfSettingsInTheDocsHasEverySetting() throws IOException {
        java.util.regex.Pattern list = java.util.regex.Pattern
                .compile("`[a-z.\\-]+`(?:(?:,\\s+(?:and\\s+)?|\\s+and\\s+)`[a-z.\\-]+`)+");
        List<String> keys = Arrays.stream(Setting.values()).map(Setting::key).toList();
        List<String> lists = new ArrayList<>();
        for (Path page : pages()) {
            java.util.regex.Matcher matcher = list.matcher(Files.readString(page));
            while (matcher.find()) {
                List<String> named = java.util.regex.Pattern.compile("`([^`]+)`").matcher(matcher.group()).results()
                        .map(result -> result.group(1)).toList();
                String text = Files.readString(page);
                boolean examples = text.startsWith(", …", matcher.end()) || text.startsWith(", ...", matcher.end());
                if (named.stream().filter(keys::contains).count() >= 4) {
                    lists.add(page.getFileName() + ": " + named);
                    if (examples) { // a few keys, then an ellipsis: each is a key
                        assertThat(keys).as(page.getFileName() + ": " + matcher.group()).containsAll(named);
                    } else {
                        assertThat(named).as(page.getFileName() + ": " + matcher.group()).isEqualTo(keys);
                    }
                }
            }
        }
        assertThat(lists).as("the lists found").anyMatch(found -> found.startsWith("README.md"))
                .anyMatch(found -> found.startsWith("hibernate-generator.md"));
    }

    /**
     * The endpoint's example in docs/operations.md has every field of a sequence's description, in their order,
     * and every setting under {@code settings}, valued as a properties file sets it.
     */
    @Test
    void theEndpointExampleHasEveryFieldAndEverySetting() throws IOException {
        String guide = Files.readString(OPERATIONS_GUIDE);
        int start = guide.indexOf("```json\n{\n  \"store\"");
        assertThat(start).as("the endpoint's example").isNotNegative();
        String json = guide.substring(start + "```json\n".length(), guide.indexOf("```", start + 7));
        JsonNode sequence = JsonMapper.builder().build().readTree(json).path("sequences").path("orders");
        assertThat(sequence.propertyNames()).as("the fields of a sequence").containsExactly(
                Arrays.stream(dev.seqgen.boot.actuate.SeqgenEndpoint.SequenceDescriptor.class.getRecordComponents())
                        .map(java.lang.reflect.RecordComponent::getName).toArray(String[]::new));
        JsonNode settings = sequence.path("settings");
        assertThat(settings.propertyNames()).as("the settings")
                .containsExactly(Arrays.stream(Setting.values()).map(Setting::key).toArray(String[]::new));
        dev.seqgen.SequenceSettings.Builder builder = dev.seqgen.SequenceSettings.builder();
        for (Setting setting : Setting.values()) {
            setting.apply(builder, settings.path(setting.key()).asString());
        }
        assertThat(builder.build().strategy()).isEqualTo(dev.seqgen.Strategy.BATCH);
    }

    /**
     * Every plain Hibernate setting of {@code SeqgenHibernate} is in the settings table of docs/hibernate.md and in
     * the table of docs/hibernate-generator.md that says where the registry comes from (a prefix as
     * {@code seqgen.defaults.*} or {@code seqgen.defaults.<key>}).
     */
    @Test
    void bothHibernateGuidesListEveryPlainHibernateSetting() throws IOException, IllegalAccessException {
        List<String> settings = new ArrayList<>();
        for (Field field : dev.seqgen.hibernate.SeqgenHibernate.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                settings.add((String) field.get(null));
            }
        }
        assertThat(settings).as("the settings read").contains("seqgen.hibernate.registry", "seqgen.defaults.");
        for (String page : List.of("../docs/hibernate.md", "../docs/hibernate-generator.md")) {
            List<String> documented = new ArrayList<>();
            for (String row : Files.readAllLines(Path.of(page))) {
                if (row.startsWith("| `seqgen.")) {
                    String firstCell = row.substring(1, row.indexOf(" |", 1));
                    java.util.regex.Pattern.compile("`(seqgen\\.[^`]+)`").matcher(firstCell).results()
                            .map(name -> name.group(1).replaceAll("(\\*|<[a-z]+>(\\.<[a-z]+>)?)$", ""))
                            .forEach(documented::add);
                }
            }
            assertThat(documented).as(page).containsAll(settings);
        }
    }

    /** How the main code gets a logger: the JDK's System.Logger, or Commons Logging as Spring's classes do. */
    private static final java.util.regex.Pattern GET_LOGGER = java.util.regex.Pattern
            .compile("(?:System\\.getLogger|LogFactory\\.getLog)\\(");
    /**
     * A logger named after a class: {@code System.getLogger(X.class.getName())}, {@code LogFactory.getLog(X.class)}.
     */
    private static final java.util.regex.Pattern CLASS_LOGGER = java.util.regex.Pattern.compile(
            "(?:System\\.getLogger\\(\\s*([A-Z]\\w*)\\.class\\.getName\\(\\)"
                    + "|LogFactory\\.getLog\\(\\s*([A-Z]\\w*)\\.class)\\s*\\)");
    /** A row of the loggers' table of docs/operations.md: the logger in backticks in its first cell. */
    private static final java.util.regex.Pattern LOGGER_ROW = java.util.regex.Pattern.compile(
            "^\\| `(dev\\.seqgen\\.[\\w.]+)` \\|", java.util.regex.Pattern.MULTILINE);
    /** A logger the docs name in running text: "the logger `dev.seqgen...`". */
    private static final java.util.regex.Pattern LOGGER_NAMED = java.util.regex.Pattern.compile(
            "logger\\s+`(dev\\.seqgen\\.[\\w.]+)`");

    /**
     * The loggers table of docs/operations.md names every logger the main code of core, the starter and the Spanner
     * module logs through, and no other; and every logger the README and docs/ name ("the logger `...`") is one of
     * them: a logger renamed, added or removed in the code leaves no page naming the wrong one.
     */
    @Test
    void theOperationsGuideNamesEveryLoggerTheMainCodeLogsThrough() throws IOException {
        java.util.Set<String> loggers = new java.util.TreeSet<>();
        List<String> unnamed = new ArrayList<>();
        for (String module : List.of("../core", "../spring-boot-starter", "../spanner-adapter")) {
            try (var files = Files.walk(Path.of(module, "src/main/java"))) {
                for (Path source : files.filter(file -> file.toString().endsWith(".java")).toList()) {
                    String code = Files.readString(source);
                    long calls = GET_LOGGER.matcher(code).results().count();
                    List<java.util.regex.MatchResult> named = CLASS_LOGGER.matcher(code).results().toList();
                    if (named.size() != calls) {
                        unnamed.add(source.toString());
                    }
                    for (java.util.regex.MatchResult logger : named) {
                        String simpleName = logger.group(1) != null ? logger.group(1) : logger.group(2);
                        loggers.add(qualified(code, simpleName));
                    }
                }
            }
        }
        assertThat(unnamed).as("sources that get a logger otherwise than by a class's name").isEmpty();
        assertThat(loggers).as("the loggers found").contains("dev.seqgen.SequenceRegistry", "dev.seqgen.Sequence",
                "dev.seqgen.hibernate.SeqgenIdGenerator", "dev.seqgen.boot.data.jdbc.AggregateSequences");
        String guide = Files.readString(OPERATIONS_GUIDE);
        java.util.Set<String> documented = new java.util.TreeSet<>();
        LOGGER_ROW.matcher(guide).results().forEach(row -> documented.add(row.group(1)));
        assertThat(documented).as("the loggers table of docs/operations.md, against the main code's loggers")
                .isEqualTo(loggers);
        List<String> stale = new ArrayList<>();
        for (Path page : pages()) {
            LOGGER_NAMED.matcher(Files.readString(page).replaceAll("\\s+", " ")).results()
                    .map(named -> named.group(1)).filter(name -> !loggers.contains(name))
                    .forEach(name -> stale.add(page.getFileName() + ": " + name));
        }
        assertThat(stale).as("loggers the docs name that the main code does not log through").isEmpty();
    }

    /** The class of a simple name as a source file sees it: imported, or in the file's own package. */
    private static String qualified(String code, String simpleName) {
        java.util.regex.Matcher imported = java.util.regex.Pattern
                .compile("^import ([\\w.]+\\." + simpleName + ");", java.util.regex.Pattern.MULTILINE).matcher(code);
        if (imported.find()) {
            return imported.group(1);
        }
        java.util.regex.Matcher pkg = java.util.regex.Pattern
                .compile("^package ([\\w.]+);", java.util.regex.Pattern.MULTILINE).matcher(code);
        assertThat(pkg.find()).as("a package declaration").isTrue();
        return pkg.group(1) + "." + simpleName;
    }

    /** The README and every page of docs/ but the changelog, which is history. */
    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("../README.md")));
        try (var docs = Files.list(Path.of("../docs"))) {
            docs.filter(page -> page.toString().endsWith(".md") && !page.endsWith("changelog.md")).sorted()
                    .forEach(pages::add);
        }
        return pages;
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
