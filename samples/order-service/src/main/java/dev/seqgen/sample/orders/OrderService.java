package dev.seqgen.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Orders and their invoices. The read-write transactions run through {@link Transactions}, which runs the whole
 * unit of work again in a new transaction when Cloud Spanner aborted it; reads are read-only transactions, which
 * take no locks and never abort on Spanner.
 */
@Service
public class OrderService {

    private final OrderRepository orders;

    private final InvoiceRepository invoices;

    private final OrderEventRepository events;

    private final Transactions transactions;

    private final TransactionTemplate readOnly;

    private final String defaultCompany;

    OrderService(OrderRepository orders, InvoiceRepository invoices, OrderEventRepository events,
            Transactions transactions, PlatformTransactionManager transactionManager,
            @Value("${sample.invoices.default-company:ACME}") String defaultCompany) {
        this.defaultCompany = checkedCompany(defaultCompany);
        this.orders = orders;
        this.invoices = invoices;
        this.events = events;
        this.transactions = transactions;
        this.readOnly = new TransactionTemplate(transactionManager);
        this.readOnly.setReadOnly(true);
    }

    /**
     * Creates an order with its lines and a {@code CREATED} event. The order id (async-batch), the line ids
     * (batch) and the event id (as configured) are taken when the entities are persisted, before the inserts,
     * which go out as JDBC batches; the order number (async-batch, {@code @SeqgenNumber}) when the order's insert
     * is flushed, here before the view is made.
     */
    public OrderView create(NewOrder request) {
        return transactions.readWrite(() -> {
            Order order = new Order(request.customer().strip(), now());
            request.lines().forEach(line -> order.addLine(line.product().strip(), line.quantity(),
                    line.unitPrice()));
            order.record(OrderEvent.Type.CREATED, order.getCreatedAt());
            orders.saveAndFlush(order);
            return OrderView.of(order);
        });
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
     * Issues the invoice of an order, by {@code company} (null: {@code sample.invoices.default-company}, ACME) on
     * {@code issueDate} (null: today, UTC); its number comes from the series of that company and the issue date's
     * year. A read-only transaction finds the order, checks it has no invoice and
     * computes the total; then a read-write transaction that only writes: the invoice and its {@code INVOICED}
     * event take their ids when they are persisted, before the transaction's first statement, and the invoice
     * number is taken from the {@code sync} sequence when the invoice's insert is flushed, last, so the sequence
     * row stays locked only from there to the commit. With {@code simulateFailure} the number really was taken
     * and the row really inserted before the rollback undoes both. A concurrent second invoice for the same order
     * fails on the unique order id (409) and rolls back the same way, and so does a transaction Spanner aborted,
     * whose retry takes a number again: numbers of committed invoices never have a hole.
     *
     * <p>Why the ids come before the first statement: the Cloud Spanner emulator runs one read-write transaction
     * at a time, so a transaction that has run a statement and then waits for a reservation of seqgen's (which
     * runs in a transaction of its own) waits for a transaction the emulator aborts again and again while the
     * first is open: such requests stalled for more than 30 s.
     *
     * @throws OrderNotFoundException no such order (404)
     * @throws InvoiceAlreadyIssuedException the order has its invoice (409)
     * @throws InvalidCompanyException not a company code (400)
     * @throws InvoiceRolledBackException when {@code simulateFailure} is set (500)
     */
    public InvoiceView issueInvoice(long orderId, String company, LocalDate issueDate, boolean simulateFailure) {
        String issuer = company == null ? defaultCompany : checkedCompany(company);
        LocalDate date = issueDate == null ? LocalDate.now(ZoneOffset.UTC) : issueDate;
        BigDecimal total = readOnly.execute(status -> {
            Order order = orders.findById(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
            if (invoices.existsByOrderId(orderId)) {
                throw new InvoiceAlreadyIssuedException(orderId);
            }
            return order.total();
        });
        return transactions.readWrite(() -> {
            Order order = orders.getReferenceById(orderId);
            Invoice invoice = invoices.save(new Invoice(order, issuer, date, total, now()));
            events.save(new OrderEvent(order, OrderEvent.Type.INVOICED, invoice.getIssuedAt()));
            // The number is taken last, when this flush inserts the invoice.
            invoices.flush();
            if (simulateFailure) {
                throw new InvoiceRolledBackException(orderId, invoice);
            }
            return InvoiceView.of(invoice);
        });
    }

    @Transactional(readOnly = true)
    public InvoiceView findInvoice(String number) {
        return InvoiceView.of(invoices.findByNumber(number).orElseThrow(() -> new InvoiceNotFoundException(number)));
    }

    /**
     * Invoices, all or those of one company ({@code company}), and of one issue year ({@code year}, with a
     * company): one series, whose counters are 1..n.
     */
    @Transactional(readOnly = true)
    public Page<InvoiceView> listInvoices(String company, Integer year, Pageable pageable) {
        if (company == null) {
            return invoices.findAll(pageable).map(InvoiceView::of);
        }
        String issuer = checkedCompany(company);
        if (year == null) {
            return invoices.findByCompany(issuer, pageable).map(InvoiceView::of);
        }
        return invoices.findByCompanyAndIssueDateBetween(issuer, LocalDate.of(year, 1, 1), LocalDate.of(year, 12, 31),
                pageable).map(InvoiceView::of);
    }

    private static String checkedCompany(String company) {
        if (!company.matches(Invoice.COMPANY)) {
            throw new InvalidCompanyException(company);
        }
        return company;
    }

    /** Microseconds: what every database here stores, so an answer shows what a later read returns. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
