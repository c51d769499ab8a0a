package dev.seqgen.jmh.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tool runs every mode on H2 for a moment and writes its three files; the figures are not judged. */
class StrategyTableTest {

    @Test
    void runsEveryModeOnH2AndWritesTheTableJsonCsvAndChart(@TempDir Path dir) throws Exception {
        TableOptions options = TableOptions.parse("--store=h2", "--url=jdbc:h2:mem:strategy_table_test;LOCK_TIMEOUT=10000",
                "--threads=1,2", "--duration=200ms", "--warmup=0ms", "--app-latency=1ms", "--store-latency=1ms",
                "--block-size=10", "--out=" + dir.resolve("h2"));
        System.setProperty("java.awt.headless", "true");

        TableReport report = StrategyTable.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        List<Path> files = report.write(options.out());

        assertThat(report.results()).hasSize(Mode.values().length * 2)
                .allSatisfy(result -> {
                    assertThat(result.errors()).as("%s errors: %s", result.mode(), result.firstError()).isZero();
                    assertThat(result.values()).as("%s values", result.mode()).isPositive();
                });
        assertThat(files).allSatisfy(file -> assertThat(Files.size(file)).isPositive());
        assertThat(Files.readAllLines(dir.resolve("h2.csv"))).hasSize(1 + Mode.values().length * 2);
    }

    /**
     * With {@code --entities-per-tx}, each transaction of the SYNC modes takes that many values (one increment by
     * K for sync-at-flush, K increments for the others), the table counts every value, and each gapless mode's
     * committed values are checked to be exactly 1..n when its run closes (an error otherwise).
     */
    @Test
    void takesSeveralValuesPerTransactionAndCountsEachOne(@TempDir Path dir) throws Exception {
        TableOptions options = TableOptions.parse("--store=h2",
                "--url=jdbc:h2:mem:strategy_table_entities;LOCK_TIMEOUT=10000", "--modes=sync,sync-at-flush,"
                        + "sync-at-flush-each", "--entities-per-tx=10", "--threads=4", "--duration=300ms",
                "--warmup=0ms", "--app-latency=1ms", "--out=" + dir.resolve("h2"));

        TableReport report = StrategyTable.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));

        assertThat(report.results()).hasSize(3).allSatisfy(result -> {
            assertThat(result.errors()).as("%s errors: %s", result.mode(), result.firstError()).isZero();
            assertThat(result.values()).as("%s values, ten per transaction", result.mode()).isPositive()
                    .satisfies(values -> assertThat(values % 10).isZero());
        });
    }

    @Test
    void refusesSeveralValuesPerTransactionForModesThatTakeOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TableOptions.parse("--store=h2", "--modes=sync-at-flush,async", "--entities-per-tx=10"))
                .withMessageContaining("--entities-per-tx=10").withMessageContaining("not async");
    }

    @Test
    void rejectsAnUnknownOptionByName() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TableOptions.parse("--store=h2", "--thread=10"))
                .withMessageContaining("--thread");
    }
}
