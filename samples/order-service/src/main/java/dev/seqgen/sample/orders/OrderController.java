package dev.seqgen.sample.orders;

import jakarta.validation.Valid;

import java.net.URI;
import java.time.LocalDate;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.web.PageableDefault;
import org.springframework.data.web.PagedModel;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The REST API.
 *
 * <pre>
 * POST /orders                                    create an order with its lines (201, Location)
 * GET  /orders/{id}                               one order with lines, events and invoice number
 * GET  /orders?page=0&amp;size=20                     orders, newest id first
 * POST /orders/{id}/invoice                       issue the order's invoice (201, Location), by the default company
 *                                                 today; ?company=BETA&amp;issueDate=2025-12-31 to choose
 * POST /orders/{id}/invoice?simulateFailure=true  take a number, insert the invoice, then fail: rolled back
 * GET  /invoices/{number}                         one invoice, by its number (INV-ACME-2026-000042)
 * GET  /invoices?page=0&amp;size=100                  invoices by number; ?company=ACME&amp;year=2026: one series
 * </pre>
 */
@RestController
class OrderController {

    private final OrderService service;

    OrderController(OrderService service) {
        this.service = service;
    }

    @PostMapping("/orders")
    ResponseEntity<OrderView> create(@Valid @RequestBody NewOrder request) {
        OrderView order = service.create(request);
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
    }

    @GetMapping("/orders/{id}")
    OrderView find(@PathVariable long id) {
        return service.find(id);
    }

    @GetMapping("/orders")
    PagedModel<OrderView> list(@PageableDefault(size = 20, sort = "id", direction = Sort.Direction.DESC)
            Pageable pageable) {
        return new PagedModel<>(service.list(pageable));
    }

    @PostMapping("/orders/{id}/invoice")
    ResponseEntity<InvoiceView> issueInvoice(@PathVariable long id, @RequestParam(required = false) String company,
            @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE) LocalDate issueDate,
            @RequestParam(defaultValue = "false") boolean simulateFailure) {
        InvoiceView invoice = service.issueInvoice(id, company, issueDate, simulateFailure);
        return ResponseEntity.created(URI.create("/invoices/" + invoice.number())).body(invoice);
    }

    @GetMapping("/invoices/{number}")
    InvoiceView findInvoice(@PathVariable String number) {
        return service.findInvoice(number);
    }

    @GetMapping("/invoices")
    PagedModel<InvoiceView> listInvoices(@RequestParam(required = false) String company,
            @RequestParam(required = false) Integer year,
            @PageableDefault(size = 20, sort = "number") Pageable pageable) {
        return new PagedModel<>(service.listInvoices(company, year, pageable));
    }
}
