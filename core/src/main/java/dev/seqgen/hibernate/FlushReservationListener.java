package dev.seqgen.hibernate;

import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.event.spi.AutoFlushEvent;
import org.hibernate.event.spi.AutoFlushEventListener;
import org.hibernate.event.spi.EventType;
import org.hibernate.event.spi.FlushEvent;
import org.hibernate.event.spi.FlushEventListener;
import org.hibernate.event.spi.PreCollectionRemoveEvent;
import org.hibernate.event.spi.PreCollectionRemoveEventListener;
import org.hibernate.event.spi.PreDeleteEvent;
import org.hibernate.event.spi.PreDeleteEventListener;
import org.hibernate.event.spi.PreInsertEvent;
import org.hibernate.event.spi.PreInsertEventListener;

/** Tells {@link FlushReservations} when a flush begins and executes its first action. See docs/design.md#flush-hook. */
final class FlushReservationListener implements FlushEventListener, AutoFlushEventListener,
        PreCollectionRemoveEventListener, PreDeleteEventListener, PreInsertEventListener {

    private final FlushReservations reservations;

    private FlushReservationListener(FlushReservations reservations) {
        this.reservations = reservations;
    }

    /** Places a listener before Hibernate's own of each event it watches; once per session factory. */
    static void register(EventListenerRegistry registry, FlushReservations reservations) {
        FlushReservationListener listener = new FlushReservationListener(reservations);
        registry.prependListeners(EventType.FLUSH, listener);
        registry.prependListeners(EventType.AUTO_FLUSH, listener);
        registry.prependListeners(EventType.PRE_COLLECTION_REMOVE, listener);
        registry.prependListeners(EventType.PRE_DELETE, listener);
        registry.prependListeners(EventType.PRE_INSERT, listener);
    }

    @Override
    public void onFlush(FlushEvent event) {
        reservations.flushBegins(event.getSession());
    }

    @Override
    public void onAutoFlush(AutoFlushEvent event) {
        reservations.flushBegins(event.getSession());
    }

    @Override
    public void onPreRemoveCollection(PreCollectionRemoveEvent event) {
        reservations.actionExecutes();
    }

    @Override
    public boolean onPreDelete(PreDeleteEvent event) {
        reservations.actionExecutes();
        return false;
    }

    @Override
    public boolean onPreInsert(PreInsertEvent event) {
        reservations.actionExecutes();
        return false;
    }
}
