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

/**
 * Tells {@link FlushReservations} when a flush begins and when it executes its first action, so that the SYNC
 * numbers of the whole flush are reserved before the flush sends its first statement.
 *
 * <pre>
 * Design: the hook, chosen among those Hibernate 7.1 to 7.4 offer
 *
 * A flush runs in two parts. Hibernate's flush listener (DefaultFlushEventListener, or
 * DefaultAutoFlushEventListener before a query) first cascades (persist at flush adds entities), dirty-checks
 * and schedules the actions; an auto flush then decides whether to execute at all, and if not it keeps the
 * queued inserts for later. Then performExecutions flags the persistence context as flushing and the action
 * queue executes, in this order, orphan collection removals, orphan removals, insertions, updates, collection
 * actions and deletions; each action fires its pre-event (PRE_COLLECTION_REMOVE, PRE_DELETE, PRE_INSERT, ...)
 * before it sends its statement. A flush that inserts anything has insertions, so its first action is one of
 * the first three kinds. The count of the flush's inserts must be taken after the first part (after the
 * cascades, once the flush is known to execute) and before any statement of the second.
 *
 * - The number's generator: runs inside the insert action of the first numbered entity, after the inserts of
 *   the entity types before it were batched (what was done before, and what splits Spanner's DML batch).
 * - Interceptor.preFlush, a FlushEventListener or AutoFlushEventListener before Hibernate's, and
 *   SessionEventListener.flushStart: before the cascades, and before an auto flush knows whether it executes;
 *   reserving there would miss cascaded entities and lock the row for flushes that send nothing. The
 *   interceptor is the application's, one per session; a SessionEventListener is registered per session, or
 *   by an application setting.
 * - PreFlushEventListener: only before a query's auto flush, and only from Hibernate 7.2.
 * - A FlushEventListener after Hibernate's: after the flush.
 * - Replacing Hibernate's two flush listeners to override performExecutions: they are internal classes, and an
 *   application or integration that replaces them too would lose one of the two replacements.
 * - SessionEventListener.jdbcPrepareStatementStart: every statement, queries included, from inside the JDBC
 *   layer.
 *
 * Registered only once a SYNC number that reserves at flush exists (SeqgenRegistryService.numbersAtFlush): a
 * session factory without one has no listener of seqgen's on its flushes at all.
 *
 * Chosen: a flush and an auto-flush listener placed before Hibernate's only note, per thread, that a flush of
 * this session began; the pre-event of the first action that then runs while the persistence context is
 * flushing (a collection removal, a delete, an insert) reserves: the first part is over and nothing has been
 * sent. All these listener types and their registration are the same public SPI from 7.1 to 7.4, and the
 * pre-event listeners are placed first too, so that the reservation precedes what the application's own
 * listeners do. The pre-events' getSession() changed its return type in 7.2 (an EventSource before, then a
 * SharedSessionContractImplementor), so a call compiled against one fails on the other: the session is the one
 * the flush event gave, and the pre-events are not asked for theirs.
 * </pre>
 */
final class FlushReservationListener implements FlushEventListener, AutoFlushEventListener,
        PreCollectionRemoveEventListener, PreDeleteEventListener, PreInsertEventListener {

    private final FlushReservations reservations;

    private FlushReservationListener(FlushReservations reservations) {
        this.reservations = reservations;
    }

    /**
     * Places a listener for the reservations before Hibernate's own listeners of each event it watches. Called once
     * per session factory, by {@link SeqgenRegistryService} when a SYNC number that reserves at flush exists.
     *
     * @param registry the session factory's event listeners
     * @param reservations the per-flush reservations the listener drives
     */
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
