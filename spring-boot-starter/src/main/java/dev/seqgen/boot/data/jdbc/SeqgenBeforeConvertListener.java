package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.data.relational.core.mapping.event.BeforeConvertEvent;

/** Fills an aggregate fillable in place at its {@link BeforeConvertEvent}, before every other listener. */
final class SeqgenBeforeConvertListener implements SmartApplicationListener {

    private final ObjectProvider<SeqgenAggregateCallback> callback;
    /** Looked up at the first event, not at creation, so that the callback does not start early. */
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
