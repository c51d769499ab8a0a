package dev.seqgen.boot.paused;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.ChildJvm;
import dev.seqgen.testing.Slow;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spring's test framework pauses a cached context when the next test class needs another, and resumes it when a
 * later class uses it again ({@code spring.test.context.cache.pause}: {@code on_context_switch}, its default;
 * {@code always}, after every class; {@code never}). A suite of three classes over two configurations
 * ({@link PausedContextsSuite}, in a JVM of its own, so that the JVM's exit closes the contexts as at the end of a
 * build) passes in every mode: the resumed context serves again, no value is taken twice by the two contexts on
 * one row, and each context's registry reports at its close, paused or not, having lost nothing.
 */
@Slow
class PausedContextsTest {

    @ParameterizedTest
    @ValueSource(strings = { "on_context_switch", "always", "never" })
    void aSuiteOfSeveralConfigurationsPassesAndEveryContextReportsAtItsClose(String pause) throws Exception {
        Path stderr = Files.createDirectories(Path.of("target", "paused-contexts")).resolve(pause + ".log");
        List<String> lines = new ArrayList<>();
        try (ChildJvm suite = ChildJvm.start("suite-" + pause, List.of(
                "-Dspring.test.context.cache.pause=" + pause,
                "-Dorg.slf4j.simpleLogger.log.dev.seqgen=info", "-Dorg.slf4j.simpleLogger.logFile=System.out",
                "-Dspring.datasource.url=jdbc:h2:mem:paused-" + pause + ";DB_CLOSE_DELAY=-1",
                "-Dseqgen.defaults.strategy=async-batch", "-Dseqgen.defaults.block-size=10",
                "-Dseqgen.defaults.adaptive.enabled=false", "-Dseqgen.sequences.invoices.strategy=batch"),
                PausedContextsSuite.class, List.of(), Map.of(), stderr)) {
            lines.addAll(suite.linesUntilExit(180_000));
            assertThat(suite.awaitExit(1_000)).as("exit code; stderr: %s", stderr).isZero();
        }
        String all = String.join("\n", lines);

        assertThat(lines).as(all).contains("suite: succeeded=3 failed=0")
                .contains("values: taken=42 distinct=42")
                .noneMatch(line -> line.contains("the sequence is closed"));
        List<String> a = lifecycle(lines, "a");
        if (pause.equals("never")) {
            assertThat(a).as("context a is never paused; %s", all).containsExactly("started", "stopped");
        } else {
            assertThat(a).as("context a paused for b, resumed for the third class; %s", all)
                    .startsWith("started", "stopped", "started");
        }
        List<String> reports = lines.stream().filter(line -> line.contains("closed after issuing")).toList();
        assertThat(reports).as("one report per sequence and context at the JVM's exit; %s", all).hasSize(4)
                .allMatch(report -> report.endsWith("lost nothing"), "lost nothing");
        assertThat(reports).filteredOn(report -> report.contains("'orders' (async-batch) closed after issuing 7 values")
                || report.contains("'orders' (async-batch) closed after issuing 14 values")).hasSize(2);
        assertThat(reports).filteredOn(report -> report.contains("'invoices' (batch)")).hasSize(2);
    }

    /** What context {@code config}'s pauseable bean did, in order: started, stopped. */
    private static List<String> lifecycle(List<String> lines, String config) {
        String prefix = "lifecycle " + config + " ";
        return lines.stream().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length()))
                .toList();
    }
}
