package dev.seqgen.boot.autoconfigure;

import dev.seqgen.CloseReport;
import dev.seqgen.SequenceRegistry;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/** Closes the {@link SequenceRegistry} when the context stops, logging its unused values; docs/design.md#shutdown. */
final class SeqgenShutdown implements SmartLifecycle {

    /** Commons Logging, as Spring's own classes: no bridge that Boot removes at shutdown. */
    private static final Log LOG = LogFactory.getLog(SequenceRegistry.class);

    private final ObjectProvider<SequenceRegistry> registryProvider;
    private volatile @Nullable SequenceRegistry registry;
    private volatile boolean running;
    /** A closed registry does not reopen: a start after the stop that closed it fails. */
    private volatile @Nullable SequenceRegistry closedByStop;

    SeqgenShutdown(ObjectProvider<SequenceRegistry> registryProvider) {
        this.registryProvider = registryProvider;
    }

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

    /** A paused context keeps its registry open. */
    @Override
    public boolean isPauseable() {
        return false;
    }

    /** Below every default phase and the web server's graceful shutdown, above Boot's logging clean-up. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }
}
