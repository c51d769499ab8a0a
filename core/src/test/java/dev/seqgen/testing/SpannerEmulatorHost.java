package dev.seqgen.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Cloud Spanner emulator the tests use: the one of {@code SPANNER_EMULATOR_HOST}, else one the tests start
 * themselves from the Google Cloud CLI's emulator binary ({@code emulator_main}, Debian package
 * {@code google-cloud-cli-spanner-emulator}) on a free port, once per test JVM, stopped when the JVM exits;
 * otherwise none, and the emulator tests are skipped with how to get it (failed under
 * {@code SEQGENTEST_REQUIRE_DATABASES=true}). Needs nothing but the JDK, so every module's tests can use it.
 */
public final class SpannerEmulatorHost {

    /** What a test says when there is no emulator. */
    public static final String NO_EMULATOR = "no Cloud Spanner emulator: set SPANNER_EMULATOR_HOST (such as"
            + " localhost:9010) to a running emulator, or install the emulator binary (Debian package"
            + " google-cloud-cli-spanner-emulator from the Google Cloud CLI) for the tests to start it";

    private static final List<Path> BINARIES = List.of(
            Path.of("/usr/lib/google-cloud-sdk/bin/cloud_spanner_emulator/emulator_main"),
            Path.of("/usr/share/google-cloud-sdk/bin/cloud_spanner_emulator/emulator_main"),
            Path.of("/opt/google-cloud-sdk/bin/cloud_spanner_emulator/emulator_main"));

    private static String host;
    private static boolean looked;

    private SpannerEmulatorHost() {
    }

    /**
     * Returns the emulator's host:port, starting one on first use if need be.
     *
     * @return host:port, or null when there is no emulator
     */
    public static synchronized String host() {
        if (looked) {
            return host;
        }
        looked = true;
        String configured = System.getenv("SPANNER_EMULATOR_HOST");
        if (configured != null && !configured.isBlank()) {
            host = configured;
            TestServers.used("spanner", "the Spanner emulator of SPANNER_EMULATOR_HOST (" + configured + ")");
            return host;
        }
        Path binary = BINARIES.stream().filter(Files::isExecutable).findFirst().orElse(null);
        if (binary != null) {
            host = start(binary);
            TestServers.used("spanner", "a Spanner emulator started by the tests (" + host + ")");
        }
        return host;
    }

    private static String start(Path binary) {
        int port = freePort();
        String address = "localhost:" + port;
        try {
            Path log = Path.of("target").toAbsolutePath().resolve("spanner-emulator-" + ProcessHandle.current().pid()
                    + ".log");
            Files.createDirectories(log.getParent());
            Process emulator = new ProcessBuilder(binary.toString(), "--host_port=" + address)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Runtime.getRuntime().addShutdownHook(new Thread(emulator::destroy, "spanner-emulator-stop"));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!listening(port)) {
                if (!emulator.isAlive() || System.nanoTime() > deadline) {
                    emulator.destroy();
                    throw new IllegalStateException("the Spanner emulator " + binary + " did not listen on " + address
                            + " (log: " + log + ")");
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            return address;
        } catch (IOException e) {
            throw new IllegalStateException("could not start the Spanner emulator " + binary + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the Spanner emulator", e);
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket("localhost", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for the Spanner emulator", e);
        }
    }
}
