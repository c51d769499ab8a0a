package dev.seqgen.boot.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The complete examples of the README and docs/, compiled and run as printed: each is read from its page at test
 * time (between {@code <!-- example: ... -->} and {@code <!-- end of example -->}), never copied. A fenced block
 * after a line naming a file (`src/main/resources/application.properties`:) is that file; a Java block without
 * one is the file its package and public class name. The files are compiled with the JDK's compiler against this
 * module's test class path, as a newcomer's build would compile them against the dependencies the page lists, and
 * run on H2.
 */
class DocumentedExamplesTest {

    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- example: ([^;>]+)[^>]*-->\\n(.*?)<!-- end of example -->", Pattern.DOTALL);

    private static final Pattern BLOCK = Pattern.compile(
            "(?:`([^`\\n]+)`:\\n\\n)?```(\\w+)\\n(.*?)```", Pattern.DOTALL);

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public (?:final )?(?:class|interface|record|enum) (\\w+)", Pattern.MULTILINE);

    @TempDir
    Path project;

    @Test
    void theCoreLibraryExampleOfTheReadmeRuns() throws Exception {
        Path classes = compile(example(Path.of("../README.md"), "the core library"));
        String out = runMain(classes, "Numbers");
        assertThat(out).as("the example's output")
                .contains("order 1, lines 1..50, invoice 1");
    }

    @Test
    void thePlainHibernateExampleRuns() throws Exception {
        Path classes = compile(example(Path.of("../docs/hibernate-generator.md"), "plain Hibernate"));
        String out = runMain(classes, "com.example.orders.Orders");
        assertThat(out).as("the example's output").contains("purchase order 1");
    }

    /**
     * The minimal application of docs/spring-boot.md starts as printed, and does what the page says next:
     * {@code POST /invoices} returns {@code {"id":1,"number":1}}, then 2, and {@code GET /actuator/seqgen} shows
     * both sequences.
     */
    @Test
    void theMinimalSpringBootApplicationStartsAndServesInvoices() throws Exception {
        Path classes = compile(example(Path.of("../docs/spring-boot.md"), "the minimal application"));
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new ChildFirstResources(classes)) {
            Thread.currentThread().setContextClassLoader(loader);
            SpringApplication application = new SpringApplication(new DefaultResourceLoader(loader),
                    loader.loadClass("com.example.invoices.InvoicesApplication"));
            try (ConfigurableApplicationContext context = application.run("--server.port=0")) {
                int port = ((WebServerApplicationContext) context).getWebServer().getPort();
                HttpClient http = HttpClient.newHttpClient();
                HttpRequest create = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/invoices"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build();
                assertThat(http.send(create, HttpResponse.BodyHandlers.ofString()).body())
                        .isEqualTo("{\"id\":1,\"number\":1}");
                assertThat(http.send(create, HttpResponse.BodyHandlers.ofString()).body())
                        .isEqualTo("{\"id\":2,\"number\":2}");
                String endpoint = http.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/actuator/seqgen")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertThat(endpoint).contains("\"invoice\":{").contains("\"invoice_numbers\":{");
            }
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /**
     * Every complete program the README and docs/ print (a Java block with a {@code main} method or a
     * {@code @SpringBootApplication}) is inside an example this test runs, and the test runs every marked example:
     * a new complete example cannot be left unrun.
     */
    @Test
    void everyCompleteProgramOfTheDocsIsAnExampleThisTestRuns() throws IOException {
        List<String> marked = new ArrayList<>();
        List<String> unmarked = new ArrayList<>();
        List<Path> pages = new ArrayList<>(List.of(Path.of("../README.md")));
        try (var docs = Files.list(Path.of("../docs"))) {
            docs.filter(page -> page.toString().endsWith(".md") && !page.endsWith("changelog.md")).sorted()
                    .forEach(pages::add);
        }
        for (Path page : pages) {
            String text = Files.readString(page);
            Matcher example = EXAMPLE.matcher(text);
            while (example.find()) {
                marked.add(page.getFileName() + ": " + example.group(1).strip());
            }
            String outside = EXAMPLE.matcher(text).replaceAll("");
            Matcher block = BLOCK.matcher(outside);
            while (block.find()) {
                if (block.group(2).equals("java") && (block.group(3).contains("static void main(")
                        || block.group(3).contains("@SpringBootApplication"))) {
                    unmarked.add(page.getFileName() + ": " + block.group(3).lines().findFirst().orElse(""));
                }
            }
        }
        assertThat(unmarked).as("complete programs outside an <!-- example: ... --> marker").isEmpty();
        assertThat(marked).as("the examples this test runs").containsExactlyInAnyOrder(
                "README.md: the core library", "hibernate-generator.md: plain Hibernate",
                "spring-boot.md: the minimal application");
    }

    /** The files of the example named {@code name} on {@code page}, by their path in a project. */
    private static Map<String, String> example(Path page, String name) throws IOException {
        Matcher example = EXAMPLE.matcher(Files.readString(page));
        while (example.find()) {
            if (example.group(1).strip().equals(name)) {
                Map<String, String> files = new LinkedHashMap<>();
                Matcher block = BLOCK.matcher(example.group(2));
                while (block.find()) {
                    String path = block.group(1);
                    String source = block.group(3);
                    if (path == null && block.group(2).equals("java")) {
                        Matcher pkg = PACKAGE.matcher(source);
                        Matcher type = PUBLIC_TYPE.matcher(source);
                        assertThat(type.find()).as(page + ", " + name + ": a public type").isTrue();
                        path = "src/main/java/" + (pkg.find() ? pkg.group(1).replace('.', '/') + "/" : "")
                                + type.group(1) + ".java";
                    }
                    if (path != null) {
                        files.put(path, source);
                    }
                }
                assertThat(files).as(page + ", " + name + ": its files").isNotEmpty();
                return files;
            }
        }
        throw new AssertionError(page + " has no example marked <!-- example: " + name + "; ... -->");
    }

    /**
     * Writes the files into the project and compiles its sources; returns the directory of the classes, which
     * holds the resources too.
     */
    private Path compile(Map<String, String> files) throws IOException {
        Path classes = Files.createDirectories(project.resolve("target/classes"));
        List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-parameters",
                "-proc:none", "-classpath", System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path"))));
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = project.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
            if (file.getKey().startsWith("src/main/resources/")) {
                Path resource = classes.resolve(file.getKey().substring("src/main/resources/".length()));
                Files.createDirectories(resource.getParent());
                Files.copy(path, resource);
            } else if (file.getKey().endsWith(".java")) {
                arguments.add(path.toString());
            }
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = compiler.run(null, errors, errors, arguments.toArray(String[]::new));
        assertThat(status).as("javac: %s", errors.toString(StandardCharsets.UTF_8)).isZero();
        return classes;
    }

    /** Runs the class's {@code main} and returns what it printed. */
    private static String runMain(Path classes, String className) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new ChildFirstResources(classes)) {
            Thread.currentThread().setContextClassLoader(loader);
            Method main = loader.loadClass(className).getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(out);
            Thread.currentThread().setContextClassLoader(previous);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        out.print(text);
        return text;
    }

    /**
     * The example's classes over this module's test class path; the example's own resources
     * ({@code application.properties}) come before any of the test class path's.
     */
    private static final class ChildFirstResources extends URLClassLoader {

        ChildFirstResources(Path classes) {
            super(new URL[] {url(classes)}, DocumentedExamplesTest.class.getClassLoader());
        }

        @Override
        public URL getResource(String name) {
            URL own = findResource(name);
            return own != null ? own : super.getResource(name);
        }

        private static URL url(Path classes) {
            try {
                return classes.toUri().toURL();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
