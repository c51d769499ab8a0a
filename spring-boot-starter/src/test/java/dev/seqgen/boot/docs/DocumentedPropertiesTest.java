package dev.seqgen.boot.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Setting;
import dev.seqgen.boot.autoconfigure.SeqgenProperties;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.convert.ApplicationConversionService;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code seqgen.*} properties the documentation names, against the starter's configuration metadata (generated
 * from {@link SeqgenProperties} by the build) and the defaults {@link SeqgenProperties} binds: a property renamed or
 * removed, or a default changed, fails here naming the page, the line and the property, instead of leaving a page
 * that tells users to set what binds to nothing.
 *
 * <p>The pages: README.md, CONTRIBUTING.md, every page of docs/ but the changelog (history, which names removed
 * properties as removed and the typos the start-up warns of), the samples' and the benchmarks' READMEs. Every
 * {@code seqgen.} name in them is read, in prose, tables and code blocks alike, and must be one of:
 * <ul>
 * <li>a property of the metadata, or a group of them ({@code seqgen.spanner}, {@code seqgen.spanner.*},
 * {@code seqgen.*}); a map's key is any name ({@code seqgen.sequences.orders.block-size},
 * {@code seqgen.sequences[Order.Lines].max-value}, {@code seqgen.series.warm-up.invoices}), and the keys under a
 * sequence are those under {@code seqgen.defaults}; a placeholder ({@code <name>}, {@code <key>}) stands for any
 * one element;</li>
 * <li>a plain Hibernate setting of {@link SeqgenHibernate};</li>
 * <li>a meter or observation of {@link MicrometerMetricsTrackerFactory}, also with Micrometer's {@code .active};</li>
 * <li>after {@code -D}, a system property the tests read (a string literal of a test source);</li>
 * <li>directly before "(did you mean", the example of a typo, whose suggestion must then be a property.</li>
 * </ul>
 *
 * <p>A default is checked where the docs state one for a property: the second cell of a table whose header calls
 * that column "default" (one code span: that value; empty: none), and "`seqgen.x` (default `v`" or
 * "`seqgen.x`, default `v`" or "`seqgen.x` (60 s by default" in prose. The value is converted as Spring Boot binds
 * it and compared with what a {@link SeqgenProperties} binds when nothing is set, or, for a sequence's setting,
 * with its built-in default ({@link Setting#defaultText()}; docs/settings.md's table is checked by
 * {@code DocumentationTest}). The pages about plain Hibernate state the defaults of Hibernate settings, not of the
 * starter, and are left out of that check.
 */
class DocumentedPropertiesTest {

    /**
     * A {@code seqgen.} name: not the tail of a Java name ({@code dev.seqgen.Sequence}) or of a file name; after
     * {@code -D}, a system property.
     */
    private static final Pattern NAME = Pattern
            .compile("(?:(?<=-D)|(?<![\\w.$/#-]))seqgen\\.[A-Za-z0-9_.\\-<>\\[\\]*]+");
    /** A default stated in prose right after a property: "`seqgen.table`, default `seqgen_sequences`". */
    private static final Pattern PROSE_DEFAULT = Pattern
            .compile("`(seqgen\\.[a-z0-9.\\-]+)`(?:,|\\s\\()\\s*default\\s+`([^`]+)`");
    /** A duration stated in words right after a property: "`seqgen.warm-up.timeout` (60 s by default". */
    private static final Pattern PROSE_DURATION = Pattern.compile(
            "`(seqgen\\.[a-z0-9.\\-]+)`\\s+\\((\\d+)\\s*(ms|s|seconds?|m|minutes?|h|hours?)\\s+by default");
    /** Pages whose defaults are plain Hibernate's ({@code seqgen.schema.initialize} is {@code always} there). */
    private static final Set<String> HIBERNATE_PAGES = Set.of("docs/hibernate.md", "docs/hibernate-generator.md");

    @Test
    void everySeqgenNameTheDocsWriteIsAPropertyASettingOrAMeter() throws IOException {
        List<String> unknown = new ArrayList<>();
        List<String> read = new ArrayList<>();
        Names names = Names.read();
        for (Page page : pages()) {
            unknown.addAll(names.unknown(page, read));
        }
        assertThat(read).as("names the check read").hasSizeGreaterThan(100)
                .contains("seqgen.schema.initialize", "seqgen.sequences.<name>.kind", "seqgen.series.warm-up.invoices",
                        "seqgen.hibernate.registry", "seqgen.refills.late", "seqgen.stress.seed");
        assertThat(unknown).as("seqgen names in the docs that no property, Hibernate setting or meter has").isEmpty();
    }

    @Test
    void everyDefaultTheDocsStateIsTheBoundDefault() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<String> read = new ArrayList<>();
        Names names = Names.read();
        for (Page page : pages()) {
            if (!HIBERNATE_PAGES.contains(page.file())) {
                wrong.addAll(names.wrongDefaults(page, read));
            }
        }
        assertThat(read).as("defaults the check read").contains("seqgen.warm-up.timeout=60s",
                "seqgen.series.idle-timeout=10m", "seqgen.schema.initialize=embedded", "seqgen.table=seqgen_sequences",
                "seqgen.spanner.instance-id=", "seqgen.jdbc.sequence-prefix=seqgen_");
        assertThat(wrong).as("defaults in the docs that differ from what SeqgenProperties binds").isEmpty();
    }

    /** The IDE shows the metadata's defaults: each is what {@link SeqgenProperties} binds when nothing is set. */
    @Test
    void everyDefaultOfTheMetadataIsTheBoundDefault() throws IOException {
        Names names = Names.read();
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, String> property : names.metadataDefaults.entrySet()) {
            assertThat(names.differs(property.getKey(), property.getValue())).as(property.getKey()).isNull();
            checked.add(property.getKey());
        }
        assertThat(checked).as("metadata defaults").contains("seqgen.table", "seqgen.warm-up.timeout",
                "seqgen.series.idle-timeout");
    }

    /** The check itself: a misspelt property, a typo's wrong suggestion and a wrong default, each by file and line. */
    @Test
    void theCheckNamesTheFileTheLineAndThePropertyAtFault() throws IOException {
        Page planted = new Page("docs/planted.md", String.join("\n",
                "Set `seqgen.sequences.orders.block-size` and `seqgen.defaults.adaptive.enabled`.",
                "seqgen.jdbc.initialize-schema=always",
                "| property | default | description |",
                "|---|---|---|",
                "| `seqgen.warm-up.timeout` | `30s` | the limit |",
                "| `seqgen.spanner.instance-id` | | the instance |",
                "WARN seqgen: the property seqgen.sequence.x.block-size (did you mean seqgen.sequences.x.blocksize?)",
                "the table (`seqgen.table`, default",
                "`sequences`); `-Dseqgen.no.such.switch=1`; the meter `seqgen.refills.late.active`; `seqgen.spanner.*`"));
        Names names = Names.read();
        assertThat(names.unknown(planted, new ArrayList<>())).containsExactly(
                "docs/planted.md:2: seqgen.jdbc.initialize-schema",
                "docs/planted.md:7: seqgen.sequences.x.blocksize (the suggestion of a typo)",
                "docs/planted.md:9: seqgen.no.such.switch (no test reads this system property)",
                "docs/planted.md:9: seqgen.refills.late.active");
        assertThat(names.wrongDefaults(planted, new ArrayList<>())).containsExactly(
                "docs/planted.md:5: seqgen.warm-up.timeout: the docs say 30s, SeqgenProperties binds PT1M",
                "docs/planted.md:8: seqgen.table: the docs say sequences, SeqgenProperties binds seqgen_sequences");
    }

    /** A page, by its path from the repository's root. */
    record Page(String file, String text) {

        int line(int offset) {
            int line = 1;
            for (int i = 0; i < offset; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return line;
        }
    }

    /** The names a page may use, and the defaults they bind. */
    private static final class Names {

        /** The metadata's properties, each as the elements of its name; a map's key is {@code <*>}. */
        private final List<String[]> patterns = new ArrayList<>();
        /** The metadata's defaults, by property. */
        private final Map<String, String> metadataDefaults = new LinkedHashMap<>();
        /** Hibernate settings, meters and observations. */
        private final Set<String> other = new TreeSet<>();
        /** The string literals of the test sources, for the system properties the tests read. */
        private final Set<String> testLiterals = new TreeSet<>();

        static Names read() throws IOException {
            Names names = new Names();
            List<String> keys = new ArrayList<>();
            List<JsonNode> properties = metadata();
            for (JsonNode property : properties) {
                String name = property.path("name").asString();
                if (name.startsWith("seqgen.defaults.")) {
                    keys.add(name.substring("seqgen.defaults.".length()));
                }
                if (property.has("defaultValue")) {
                    names.metadataDefaults.put(name, property.path("defaultValue").asString());
                }
            }
            for (JsonNode property : properties) {
                String name = property.path("name").asString();
                String type = property.path("type").asString();
                if (type.startsWith("java.util.Map<java.lang.String," + SeqgenProperties.class.getName())) {
                    keys.forEach(key -> names.patterns.add((name + ".<*>." + key).split("\\.")));
                } else if (type.startsWith("java.util.Map<")) {
                    names.patterns.add((name + ".<*>").split("\\.")); // seqgen.series.warm-up.<sequence>
                }
                names.patterns.add(name.split("\\."));
            }
            for (Class<?> constants : List.of(SeqgenHibernate.class, MicrometerMetricsTrackerFactory.class)) {
                for (Field field : constants.getFields()) {
                    if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                        try {
                            names.other.add(((String) field.get(null)).replaceAll("\\.$", ""));
                        } catch (IllegalAccessException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }
            for (String observation : List.of(MicrometerMetricsTrackerFactory.RESERVATION_OBSERVATION,
                    MicrometerMetricsTrackerFactory.REFILL_OBSERVATION, MicrometerMetricsTrackerFactory.WAIT_OBSERVATION)) {
                names.other.add(observation + ".active"); // the long-task timer of an observation
            }
            Pattern literal = Pattern.compile("\"(seqgen\\.[^\"]+)\"");
            try (Stream<Path> files = Files.walk(root())) {
                for (Path source : files.filter(file -> file.toString().endsWith(".java")
                        && file.toString().contains("/src/test/") && !file.toString().contains("/target/")
                        && !file.toString().contains("/dev/seqgen/boot/docs/")).toList()) { // not the docs' tests
                    literal.matcher(Files.readString(source)).results().forEach(found -> names.testLiterals
                            .add(found.group(1)));
                }
            }
            return names;
        }

        /** The names of the page that are none of the known ones, as "file:line: name (why)". */
        List<String> unknown(Page page, List<String> read) {
            List<String> unknown = new ArrayList<>();
            Matcher matcher = NAME.matcher(page.text());
            while (matcher.find()) {
                String written = trimmed(matcher.group());
                read.add(written);
                String where = page.file() + ":" + page.line(matcher.start()) + ": " + written;
                if (page.text().startsWith(" (did you mean ", matcher.start() + written.length())) {
                    continue; // the example of a typo: its suggestion is checked as any other name
                }
                boolean systemProperty = matcher.start() >= 2
                        && page.text().startsWith("-D", matcher.start() - 2);
                if (systemProperty) {
                    if (!testLiterals.contains(written)) {
                        unknown.add(where + " (no test reads this system property)");
                    }
                } else if (!other.contains(written) && !isProperty(written)) {
                    boolean suggestion = page.text().lastIndexOf("(did you mean ", matcher.start())
                            == matcher.start() - "(did you mean ".length();
                    unknown.add(where + (suggestion ? " (the suggestion of a typo)" : ""));
                }
            }
            return unknown;
        }

        /**
         * The name without what follows it in the text: a final dot (end of a sentence), a placeholder's closing
         * {@code >} that opened before the name ({@code <seqgen.table>_kept}).
         */
        private static String trimmed(String name) {
            String trimmed = name;
            int depth = 0;
            for (int i = 0; i < trimmed.length(); i++) {
                char c = trimmed.charAt(i);
                if (c == '<') {
                    depth++;
                } else if (c == '>' && depth-- == 0) {
                    trimmed = trimmed.substring(0, i);
                    break;
                }
            }
            return trimmed.replaceAll("\\.+$", "");
        }

        /**
         * Whether the name is a property of the metadata or a group of them: element by element, a placeholder of
         * the name ({@code <name>}) or of the metadata (a map's key) matches any element, and a final {@code *} any
         * rest.
         */
        boolean isProperty(String written) {
            String[] elements = written.replaceAll("\\[[^\\]]*]", ".<key>").split("\\.");
            boolean wildcard = elements[elements.length - 1].equals("*");
            int length = wildcard ? elements.length - 1 : elements.length;
            for (String[] pattern : patterns) {
                if (length <= pattern.length && (wildcard || length > 1 || pattern.length == 1)
                        && matches(elements, pattern, length)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean matches(String[] elements, String[] pattern, int length) {
            for (int i = 0; i < length; i++) {
                boolean any = elements[i].startsWith("<") || pattern[i].equals("<*>");
                if (!any && !elements[i].equals(pattern[i])) {
                    return false;
                }
            }
            return true;
        }

        /** The defaults the page states that differ from the bound ones, as "file:line: name: ...". */
        List<String> wrongDefaults(Page page, List<String> read) {
            List<String> wrong = new ArrayList<>();
            String[] lines = page.text().split("\n", -1);
            boolean defaultColumn = false;
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                if (line.startsWith("|---") && i > 0) {
                    List<String> header = cells(lines[i - 1]);
                    defaultColumn = header.size() > 1 && header.get(1).equalsIgnoreCase("default");
                } else if (!line.startsWith("|")) {
                    defaultColumn = false;
                } else if (defaultColumn) {
                    List<String> row = cells(line);
                    String name = codeSpan(row.get(0));
                    String value = row.get(1).isEmpty() ? "" : codeSpan(row.get(1));
                    if (name != null && name.startsWith("seqgen.") && !name.matches(".*[<*\\[].*") && value != null) {
                        check(page.file() + ":" + (i + 1), name, value, read, wrong);
                    }
                }
            }
            Matcher prose = PROSE_DEFAULT.matcher(page.text());
            while (prose.find()) {
                check(page.file() + ":" + page.line(prose.start()), prose.group(1), prose.group(2), read, wrong);
            }
            Matcher duration = PROSE_DURATION.matcher(page.text());
            while (duration.find()) {
                String unit = duration.group(3).startsWith("se") ? "s" : duration.group(3).startsWith("mi") ? "m"
                        : duration.group(3).startsWith("ho") ? "h" : duration.group(3);
                check(page.file() + ":" + page.line(duration.start()), duration.group(1), duration.group(2) + unit,
                        read, wrong);
            }
            return wrong;
        }

        private void check(String where, String name, String documented, List<String> read, List<String> wrong) {
            read.add(name + "=" + documented);
            String differs = differs(name, documented);
            if (differs != null) {
                wrong.add(where + ": " + name + ": the docs say " + (documented.isEmpty() ? "none" : documented)
                        + ", " + differs);
            }
        }

        /**
         * What is bound instead of the documented default, or null when the two agree: the documented text
         * converted to the property's type as Spring Boot binds it, against a {@link SeqgenProperties} bound from
         * nothing; for a sequence's setting, against the setting's built-in default. An empty text says there is
         * no default: nothing bound, or an empty map or list.
         */
        @Nullable String differs(String name, String documented) {
            String[] elements = name.split("\\.");
            if (elements.length > 2 && (elements[1].equals("defaults") || elements[1].equals("sequences"))) {
                String key = String.join(".", Arrays.copyOfRange(elements, elements[1].equals("defaults") ? 2 : 3,
                        elements.length));
                Setting setting = Setting.find(key).orElse(null);
                if (setting == null) {
                    return "which is no setting";
                }
                return documented.equals(setting.defaultText()) ? null
                        : "the setting's built-in default is " + setting.defaultText();
            }
            StringBuilder path = new StringBuilder();
            for (int i = 1; i < elements.length; i++) {
                path.append(i > 1 ? "." : "").append(camelCase(elements[i]));
            }
            BeanWrapper bound = PropertyAccessorFactory.forBeanPropertyAccess(new SeqgenProperties());
            if (!bound.isReadableProperty(path.toString())) {
                return "which SeqgenProperties does not have";
            }
            Object value = bound.getPropertyValue(path.toString());
            if (documented.isEmpty()) {
                boolean none = value == null || value instanceof Map<?, ?> map && map.isEmpty()
                        || value instanceof Collection<?> collection && collection.isEmpty();
                return none ? null : "SeqgenProperties binds " + value;
            }
            Object converted;
            try {
                converted = ApplicationConversionService.getSharedInstance().convert(documented,
                        Objects.requireNonNull(bound.getPropertyType(path.toString())));
            } catch (RuntimeException e) {
                return "which does not bind (" + e.getMessage() + "); SeqgenProperties binds " + value;
            }
            return Objects.equals(converted, value) ? null
                    : "SeqgenProperties binds " + (value == null ? "nothing" : value);
        }

        private static String camelCase(String dashed) {
            StringBuilder out = new StringBuilder();
            for (String part : dashed.split("-")) {
                out.append(out.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
            }
            return out.toString();
        }

        private static List<String> cells(String row) {
            String inner = row.strip();
            inner = inner.substring(1, inner.endsWith("|") && inner.length() > 1 ? inner.length() - 1 : inner.length());
            return Arrays.stream(inner.split("(?<!\\\\)\\|", -1)).map(String::strip).toList();
        }

        /** The text of a cell that is exactly one code span, or null. */
        private static @Nullable String codeSpan(String cell) {
            return cell.matches("`[^`]+`") ? cell.substring(1, cell.length() - 1) : null;
        }
    }

    /** The pages that document seqgen, by path from the repository's root; the changelog is history. */
    private static List<Page> pages() throws IOException {
        List<Path> paths = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CONTRIBUTING.md"),
                Path.of("jmh-benchmarks/README.md")));
        try (Stream<Path> docs = Files.list(root().resolve("docs"))) {
            docs.map(page -> root().relativize(page)).filter(page -> page.toString().endsWith(".md")
                    && !page.endsWith("changelog.md")).sorted().forEach(paths::add);
        }
        try (Stream<Path> samples = Files.list(root().resolve("samples"))) {
            samples.map(sample -> root().relativize(sample.resolve("README.md")))
                    .filter(readme -> Files.exists(root().resolve(readme))).sorted().forEach(paths::add);
        }
        List<Page> pages = new ArrayList<>();
        for (Path path : paths) {
            pages.add(new Page(path.toString(), Files.readString(root().resolve(path))));
        }
        assertThat(pages).extracting(Page::file).as("pages").contains("README.md", "docs/spring-boot.md",
                "docs/settings.md", "samples/order-service/README.md").doesNotContain("docs/changelog.md");
        return pages;
    }

    /** The repository's root: the tests run in the module's directory. */
    private static Path root() {
        return Path.of("..");
    }

    private static List<JsonNode> metadata() throws IOException {
        try (InputStream in = DocumentedPropertiesTest.class
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
