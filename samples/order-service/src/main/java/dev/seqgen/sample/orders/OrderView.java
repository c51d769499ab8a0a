package dev.seqgen.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * An order as the API shows it, with the id each part got from its sequence and the order number (from the
 * sequence {@code order_numbers}) that people read.
 */
public record OrderView(long id, Long number, String customer, Instant createdAt, BigDecimal total, List<LineView> lines,
        String invoiceNumber, List<EventView> events) {

    /** A line; {@code id} comes from the {@code batch} sequence {@code order_lines}. */
    public record LineView(long id, String product, int quantity, BigDecimal unitPrice) {
    }

    /** An event; {@code id} comes from the sequence {@code order_event}, configured by properties only. */
    public record EventView(long id, OrderEvent.Type type, Instant at) {
    }

    static OrderView of(Order order) {
        List<LineView> lines = order.getLines().stream()
                .map(line -> new LineView(line.getId(), line.getProduct(), line.getQuantity(), line.getUnitPrice()))
                .toList();
        List<EventView> events = order.getEvents().stream()
                .map(event -> new EventView(event.getId(), event.getType(), event.getAt()))
                .toList();
        String invoiceNumber = order.getInvoice() == null ? null : order.getInvoice().getNumber();
        return new OrderView(order.getId(), order.getNumber(), order.getCustomer(), order.getCreatedAt(), order.total(), lines,
                invoiceNumber, events);
    }
}
