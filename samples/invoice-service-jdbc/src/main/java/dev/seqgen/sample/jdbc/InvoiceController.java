package dev.seqgen.sample.jdbc;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /invoices} saves one invoice ({@code save}), {@code POST /invoices/batch?count=N} N invoices in one
 * {@code saveAll} (ids from the block in hand, all N numbers in one increment), {@code GET /invoices} lists them.
 */
@RestController
@RequestMapping("/invoices")
public class InvoiceController {

    /** The most invoices one {@code POST /invoices/batch} creates. */
    static final int MAX_BATCH = 10_000;

    private final InvoiceRepository invoices;

    /**
     * A controller over the repository.
     *
     * @param invoices the repository
     */
    public InvoiceController(InvoiceRepository invoices) {
        this.invoices = invoices;
    }

    /**
     * Saves one invoice; the repository's own transaction takes its number.
     *
     * @param invoice the invoice
     * @return the saved invoice, with id, number and line ids
     */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    public Invoice create(@RequestBody NewInvoice invoice) {
        return invoices.save(invoice.toInvoice());
    }

    /**
     * Saves {@code count} invoices of one line each in one {@code saveAll}.
     *
     * @param count how many, 1 to {@value #MAX_BATCH}
     * @param customer who is billed
     * @return the saved invoices
     */
    @PostMapping("/batch")
    @ResponseStatus(HttpStatus.CREATED)
    public List<Invoice> createBatch(@RequestParam int count, @RequestParam(defaultValue = "batch") String customer) {
        if (count < 1 || count > MAX_BATCH) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "count must be 1 to " + MAX_BATCH + ", was " + count);
        }
        List<Invoice> batch = IntStream.rangeClosed(1, count)
                .mapToObj(i -> new Invoice(customer, List.of(InvoiceLine.of("item " + i, BigDecimal.ONE))))
                .toList();
        List<Invoice> saved = new ArrayList<>();
        invoices.saveAll(batch).forEach(saved::add);
        return saved;
    }

    /** @return every invoice */
    @GetMapping
    public List<Invoice> list() {
        List<Invoice> all = new ArrayList<>();
        invoices.findAll().forEach(all::add);
        return all;
    }
}
