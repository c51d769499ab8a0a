package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.data.relational.core.mapping.event.BeforeConvertEvent;

/**
 * Gives an aggregate its {@link dev.seqgen.SeqgenValue} values at its {@link BeforeConvertEvent}, before every other
 * listener of the event, when they can be set in place (see {@link SeqgenAggregateCallback}): a listener that copies
 * a new root's id into a child sees the id. Aggregates seqgen must replace get their values in the callback.
 */
final class SeqgenBeforeConvertListener implements SmartApplicationListener {

    private final ObjectProvider<SeqgenAggregateCallback> callback;
    /** The callback, looked up at the first event rather than when the listener is created (no early start-up). */
    private volatile @Nullable SeqgenAggregateCallback resolved;

    SeqgenBeforeConvertListener(ObjectProvider<SeqgenAggregateCallback> callback) {
        this.callback = callback;
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return BeforeConvertEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof BeforeConvertEvent<?> beforeConvert) {
            SeqgenAggregateCallback filling = resolved;
            if (filling == null) {
                filling = callback.getIfAvailable();
                resolved = filling;
            }
            if (filling != null) {
                filling.onBeforeConvertEvent(beforeConvert.getEntity());
            }
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
