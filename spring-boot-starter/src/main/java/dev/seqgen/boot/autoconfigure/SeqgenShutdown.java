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

    SeqgenShutdown(ObjectProvider<SequenceRegistry> registryProvider) {
        this.registryProvider = registryProvider;
    }

    /** Takes the registry that was made while the context refreshed, if any: none is made here. */
    @Override
    public void start() {
        registry = registryProvider.getIfAvailable();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        SequenceRegistry closing = registry;
        if (closing == null) {
            return;
        }
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

    @Override
    public int getPhase() {
        return PHASE;
    }
}
