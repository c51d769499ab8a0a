package dev.seqgen.boot.data.jdbc;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.data.relational.core.mapping.event.BeforeConvertEvent;
import org.springframework.util.function.SingletonSupplier;

/** Fills an aggregate fillable in place at its {@link BeforeConvertEvent}, before every other listener. */
final class SeqgenBeforeConvertListener implements SmartApplicationListener {

    /** Looked up at the first event, not at creation, so that the callback does not start early. */
    private final SingletonSupplier<SeqgenAggregateCallback> callback;

    SeqgenBeforeConvertListener(ObjectProvider<SeqgenAggregateCallback> callback) {
        this.callback = SingletonSupplier.of(callback::getIfAvailable);
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return BeforeConvertEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof BeforeConvertEvent<?> beforeConvert && callback.get() != null) {
            callback.obtain().onBeforeConvertEvent(beforeConvert.getEntity());
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
