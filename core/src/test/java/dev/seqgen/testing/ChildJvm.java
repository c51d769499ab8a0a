package dev.seqgen.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started with this JVM's class path to run a main class of the test sources, reading its stdout line by
 * line; its stderr goes to a file (named in failure messages).
 */
public final class ChildJvm implements AutoCloseable {

    private static final String EOF = "\u0000EOF";

    private final String name;
    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Writer stdin;

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process died
            }
            lines.add(EOF);
        }, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args} in a small, quick-starting JVM. */
    public static ChildJvm start(String name, Class<?> mainClass, List<String> args, Map<String, String> environment,
            Path stderr) throws IOException {
        return start(name, List.of(), mainClass, args, environment, stderr);
    }

    /** Starts {@code mainClass} with {@code args} in a small, quick-starting JVM given {@code jvmOptions} too. */
    public static ChildJvm start(String name, List<String> jvmOptions, Class<?> mainClass, List<String> args,
            Map<String, String> environment, Path stderr) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m", "-XX:-UsePerfData",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().putAll(environment);
        return new ChildJvm(name, builder.start(), stderr);
    }

    /** Waits for a line starting with {@code prefix}, skipping others, and returns it. */
    public String awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
        return awaitLine(prefix, timeoutMillis, new ArrayList<>());
    }

    /**
     * Waits for a line starting with {@code prefix} and returns every line before it, in the order written.
     */
    public List<String> linesBefore(String prefix, long timeoutMillis) throws InterruptedException {
        List<String> before = new ArrayList<>();
        awaitLine(prefix, timeoutMillis, before);
        return before;
    }

    private String awaitLine(String prefix, long timeoutMillis, List<String> before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (;;) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || line.equals(EOF)) {
                throw new AssertionError(name + ": no line starting with '" + prefix + "' within " + timeoutMillis
                        + " ms (" + (line == null ? "timed out" : "exited with " + exitCode()) + "); stderr: " + stderr);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            before.add(line);
        }
    }

    /**
     * Waits for the process to exit and returns every line it wrote to stdout that was not read yet, in order:
     * for what a JVM writes as it shuts down (its shutdown hooks).
     */
    public List<String> linesUntilExit(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<String> rest = new ArrayList<>();
        for (;;) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError(name + " did not exit within " + timeoutMillis + " ms; stderr: " + stderr
                        + "; its lines so far: " + rest);
            }
            if (line.equals(EOF)) {
                return rest;
            }
            rest.add(line);
        }
    }

    /** Sends one line to the process's stdin. */
    public void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** {@code kill -9}: the JVM gets no chance to run a shutdown hook, a finally block or a close. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " survived kill -9");
        }
        return process.exitValue();
    }

    /** Waits for the process to exit and returns its exit code. */
    public int awaitExit(long timeoutMillis) throws InterruptedException {
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not exit within " + timeoutMillis + " ms; stderr: " + stderr);
        }
        return process.exitValue();
    }

    /** Returns the name given at start, for messages. */
    public String name() {
        return name;
    }

    private String exitCode() {
        return process.isAlive() ? "(still running)" : String.valueOf(process.exitValue());
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
