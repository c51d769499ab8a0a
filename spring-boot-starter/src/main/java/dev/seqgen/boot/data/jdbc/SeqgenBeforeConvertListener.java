package dev.seqgen.boot.data.jdbc;

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
            SeqgenAggregateCallback filling = callback.getIfAvailable();
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
