package dev.seqgen.boot.autoconfigure;

import dev.seqgen.CloseReport;
import dev.seqgen.SequenceRegistry;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the {@link SequenceRegistry} when the application context stops, and writes what became of each
 * sequence's unused values (given back to the row, kept for the fleet, or lost, and why) to the application's log:
 * one line per sequence at INFO, at WARN when the store failed.
 *
 * <pre>
 * Where the close runs, and why
 *
 * Spring Boot 4.1 cleans its logging system up from a SmartLifecycle of phase Integer.MIN_VALUE + 1
 * (LoggingApplicationListener); for Logback that removes the java.util.logging bridge, and with it everything seqgen
 * core logs through System.Logger. The registry bean's destroy method runs after every lifecycle has stopped, too
 * late to be heard. Lifecycles stop from the highest phase down, so this one, at PHASE, stops after the web server's
 * graceful shutdown (phase SmartLifecycle.DEFAULT_PHASE - 1024) and after every lifecycle of a default phase
 * (message listeners, schedulers): requests still in flight get their values first. It stops before Boot's logging
 * clean-up, so its lines reach the appenders as configured. Values taken after it stopped (a bean's destroy method
 * that inserts an entity) fail with "the sequence is closed". The registry bean's own close then finds the registry
 * closed and does nothing.
 *
 * How it logs, and why
 *
 * Through Apache Commons Logging (org.apache.commons.logging.LogFactory), as Spring Framework and Spring Boot's own
 * classes do: Spring's commons-logging routes straight to the logging system Boot configured (Logback through SLF4J,
 * Log4j 2, or java.util.logging), with no bridge that Boot removes at shutdown. seqgen-core stays without a logging
 * dependency: the registry returns its reports (SequenceRegistry.closeAndReport) and this class writes them, under
 * the registry's logger name, so logging.level.dev.seqgen governs them as it governs core's lines.
 *
 * Why a pause leaves the registry open
 *
 * Spring Framework 7 pauses a context (ConfigurableApplicationContext.pause()), as its test framework does with a
 * cached test context when the next test class needs another, by stopping its pauseable lifecycle beans; it
 * restarts them when a later class uses the context again. Closing the registry there would end it for good: a
 * closed registry does not reopen, and the resumed context would fail every value with "the sequence is closed".
 * This bean is therefore not pauseable (isPauseable() is false): a paused context keeps its registry, with the
 * blocks in hand, and serves from it again when it resumes, with no value handed out twice and none given up. The
 * registry closes, and reports, when the context closes, paused or not (the test framework closes its cached
 * contexts when the JVM exits). An explicit ConfigurableApplicationContext.stop() still closes it; a start() after
 * that fails, saying so, rather than leave the first value to fail.
 * </pre>
 */
final class SeqgenShutdown implements SmartLifecycle {

    /**
     * The phase: below every default phase and the web server's graceful shutdown, above Spring Boot's logging
     * clean-up ({@code Integer.MIN_VALUE + 1}), with room on both sides for the application's own.
     */
    static final int PHASE = Integer.MIN_VALUE + 1000;

    private static final Log LOG = LogFactory.getLog(SequenceRegistry.class);

    private final ObjectProvider<SequenceRegistry> registryProvider;
    private volatile @Nullable SequenceRegistry registry;
    private volatile boolean running;
    /** The registry a stop closed: a start after it cannot serve from it. */
    private volatile @Nullable SequenceRegistry closedByStop;

    SeqgenShutdown(ObjectProvider<SequenceRegistry> registryProvider) {
        this.registryProvider = registryProvider;
    }

    /**
     * Takes the registry that was made while the context refreshed, if any: none is made here.
     *
     * @throws IllegalStateException if an explicit stop of the context closed the registry before this start
     */
    @Override
    public void start() {
        SequenceRegistry available = registryProvider.getIfAvailable();
        if (available != null && available == closedByStop) {
            throw new IllegalStateException("seqgen: the SequenceRegistry was closed when the application context"
                    + " was stopped (ConfigurableApplicationContext.stop()), and a closed registry does not reopen;"
                    + " pause the context instead (ConfigurableApplicationContext.pause()), which leaves the"
                    + " registry open, or build a new context");
        }
        registry = available;
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        SequenceRegistry closing = registry;
        if (closing == null) {
            return;
        }
        closedByStop = closing;
        for (CloseReport report : closing.closeAndReport()) {
            if (report.failed()) {
                LOG.warn(report.message(), report.failure());
            } else {
                LOG.info(report.message());
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Not pauseable: a paused context keeps its registry open (see the class comment). */
    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
