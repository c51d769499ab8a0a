package dev.seqgen.sample.orders;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Orders and their invoices; every method is one transaction. */
@Service
public class OrderService {

    private final OrderRepository orders;

    private final InvoiceRepository invoices;

    private final InvoiceNumbering numbering;

    OrderService(OrderRepository orders, InvoiceRepository invoices, InvoiceNumbering numbering) {
        this.orders = orders;
        this.invoices = invoices;
        this.numbering = numbering;
    }

    /**
     * Creates an order with its lines and a {@code CREATED} event. The order id (async-batch), the line ids
     * (batch) and the event id (as configured) are taken when the entities are persisted, before the inserts,
     * which go out as JDBC batches.
     */
    @Transactional
    public OrderView create(NewOrder request) {
        Order order = new Order(request.customer().strip(), now());
        request.lines().forEach(line -> order.addLine(line.product().strip(), line.quantity(), line.unitPrice()));
        order.record(OrderEvent.Type.CREATED, order.getCreatedAt());
        orders.save(order);
        return OrderView.of(order);
    }

    @Transactional(readOnly = true)
    public OrderView find(long id) {
        return OrderView.of(orders.findById(id).orElseThrow(() -> new OrderNotFoundException(id)));
    }

    @Transactional(readOnly = true)
    public Page<OrderView> list(Pageable pageable) {
        return orders.findAll(pageable).map(OrderView::of);
    }

    /**
     * Issues the invoice of an order. The invoice number is taken from the {@code sync} sequence when the
     * invoice's insert is flushed, last, inside this transaction, so with
     * {@code simulateFailure} the number really was taken and the row really inserted before the rollback
     * undoes both. A concurrent second invoice for the same order fails on the unique order id (409) and
     * rolls back the same way: numbers of committed invoices never have a hole. When configuration has made
     * the sequence anything but {@code sync} (the {@code spanner} profile does), the number commits on its
     * own and a rollback leaves a hole; the failure says so ({@link InvoiceNumbering}).
     *
     * @throws OrderNotFoundException no such order (404)
     * @throws InvoiceAlreadyIssuedException the order has its invoice (409)
     * @throws InvoiceRolledBackException when {@code simulateFailure} is set (500)
     */
    @Transactional
    public InvoiceView issueInvoice(long orderId, boolean simulateFailure) {
        Order order = orders.findById(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (invoices.existsByOrderId(orderId)) {
            throw new InvoiceAlreadyIssuedException(orderId);
        }
        Invoice invoice = invoices.save(new Invoice(order, now()));
        order.record(OrderEvent.Type.INVOICED, invoice.getIssuedAt());
        // The work of the transaction is done; the number is taken last, when this flush inserts the invoice, so
        // the invoice sequence's row stays locked only from here to the commit.
        invoices.flush();
        if (simulateFailure) {
            throw new InvoiceRolledBackException(orderId, invoice.getNumber(),
                    InvoiceNumbering.name(numbering.strategy()), numbering.gapless());
        }
        return InvoiceView.of(invoice);
    }

    @Transactional(readOnly = true)
    public InvoiceView findInvoice(long number) {
        return InvoiceView.of(invoices.findByNumber(number).orElseThrow(() -> new InvoiceNotFoundException(number)));
    }

    @Transactional(readOnly = true)
    public Page<InvoiceView> listInvoices(Pageable pageable) {
        return invoices.findAll(pageable).map(InvoiceView::of);
    }

    /** Microseconds: what every database here stores, so an answer shows what a later read returns. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
