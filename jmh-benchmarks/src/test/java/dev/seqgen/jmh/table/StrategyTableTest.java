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

    /**
     * {@code --rollback-every=1}: every transaction takes its ten values and rolls back. Nothing is counted as a
     * value or an error, the rollbacks are counted apart, and the counter row is where it began: the rolled-back
     * increments were undone with their transactions.
     */
    @Test
    void transactionsRolledBackOnPurposeLeaveTheRowWhereItWas(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:mem:strategy_table_rollback;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        TableOptions options = TableOptions.parse("--store=h2", "--url=" + url, "--modes=sync-at-flush,sync-at-flush-each",
                "--entities-per-tx=10", "--rollback-every=1", "--threads=4", "--duration=1s", "--warmup=0ms",
                "--app-latency=1ms", "--out=" + dir.resolve("h2"));

        TableReport report = StrategyTable.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));

        assertThat(report.results()).hasSize(2).allSatisfy(result -> {
            assertThat(result.errors()).as("%s errors: %s", result.mode(), result.firstError()).isZero();
            assertThat(result.values()).as("%s committed values", result.mode()).isZero();
            assertThat(result.rolledBack()).as("%s rolled back", result.mode()).isPositive();
        });
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url, "sa", "");
                java.sql.ResultSet rows = connection.createStatement().executeQuery(
                        "SELECT name, next_value FROM seqgen_sequences WHERE name LIKE 'strategy_table_sync_at_flush%'")) {
            int seen = 0;
            while (rows.next()) {
                seen++;
                assertThat(rows.getLong(2)).as(rows.getString(1)).isEqualTo(1);
            }
            assertThat(seen).isEqualTo(2);
        }
    }

    /**
     * {@code --rollback-every=3} mixes commits and rollbacks: whatever the mix, the run ends without error, which
     * means each mode's committed values were exactly 1..n (its check throws otherwise), and every count of
     * values is a whole number of transactions.
     */
    @Test
    void aThirdRolledBackLeavesTheCommittedValuesGapless(@TempDir Path dir) throws Exception {
        TableOptions options = TableOptions.parse("--store=h2",
                "--url=jdbc:h2:mem:strategy_table_third;LOCK_TIMEOUT=10000", "--modes=sync-at-flush,sync-at-flush-each",
                "--entities-per-tx=10", "--rollback-every=3", "--threads=4", "--duration=300ms", "--warmup=0ms",
                "--app-latency=1ms", "--out=" + dir.resolve("h2"));

        TableReport report = StrategyTable.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));

        assertThat(report.results()).hasSize(2).allSatisfy(result -> {
            assertThat(result.errors()).as("%s errors: %s", result.mode(), result.firstError()).isZero();
            assertThat(result.values() % 10).as("%s values in whole transactions", result.mode()).isZero();
        });
    }

    @Test
    void refusesRollbacksForModesThatAreNotCheckedGapless() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TableOptions.parse("--store=h2", "--modes=sync-at-flush,async", "--rollback-every=3"))
                .withMessageContaining("--rollback-every=3").withMessageContaining("not async");
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
