package dev.seqgen.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The failure {@code ?simulateFailure=true} asks for, thrown after the invoice took its number and was
 * inserted; the transaction rolls back, and with it the number. Answers 500 with a problem-details body that
 * names the number given back ({@code rolledBackNumber}, formatted) and its counter ({@code rolledBackCounter}).
 */
class InvoiceRolledBackException extends ErrorResponseException {

    InvoiceRolledBackException(long orderId, Invoice invoice) {
        super(HttpStatus.INTERNAL_SERVER_ERROR, problem(orderId, invoice), null);
    }

    private static ProblemDetail problem(long orderId, Invoice invoice) {
        String number = invoice.getNumber();
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "Simulated failure after the invoice of order " + orderId + " took number " + number
                        + " and was inserted. The transaction rolled back, the number with it:"
                        + " the next invoice of " + invoice.getCompany() + " in " + invoice.getIssueDate().getYear()
                        + " to take a number gets " + number + ".");
        problem.setTitle("Invoice rolled back");
        problem.setProperty("rolledBackNumber", number);
        problem.setProperty("rolledBackCounter", invoice.getCounter());
        return problem;
    }
}
