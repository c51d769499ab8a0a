package dev.seqgen;

import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/** What SYNC and ASYNC share: every value is reserved on its own, so nothing is held in the JVM or given back. */
abstract class UnbufferedSequence extends AbstractSequence {

    final LongAdder issued = new LongAdder();

    UnbufferedSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        super(name, settings, store, ticker);
    }

    @Override
    final long issued() {
        return issued.sum();
    }

    @Override
    final synchronized @Nullable CloseReport closeAndReport() {
        if (closed) {
            return null;
        }
        closed = true;
        closeTracker();
        return new CloseReport.Collector(name, settings.strategy()).build(issued());
    }
}
