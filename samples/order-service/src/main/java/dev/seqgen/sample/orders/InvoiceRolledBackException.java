package dev.seqgen.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The failure {@code ?simulateFailure=true} asks for, thrown after the invoice took its number and was
 * inserted; the transaction rolls back, and with a {@code sync} invoice sequence the number with it. Answers
 * 500 with a problem-details body that names the number and says whether it was given back
 * ({@code numberGivenBack}): not with any other strategy, whose numbers commit on their own.
 */
class InvoiceRolledBackException extends ErrorResponseException {

    InvoiceRolledBackException(long orderId, long number, String strategy, boolean numberGivenBack) {
        super(HttpStatus.INTERNAL_SERVER_ERROR, problem(orderId, number, strategy, numberGivenBack), null);
    }

    private static ProblemDetail problem(long orderId, long number, String strategy, boolean numberGivenBack) {
        String failure = "Simulated failure after the invoice of order " + orderId + " took number " + number
                + " and was inserted. ";
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                numberGivenBack
                        ? failure + "The transaction rolled back, the number with it:"
                                + " the next invoice to take a number gets " + number + "."
                        : failure + "The transaction rolled back, but not the number: the invoices sequence is "
                                + strategy + ", not sync, and its numbers commit on their own, so " + number
                                + " is lost and the invoice numbers have a hole there.");
        problem.setTitle("Invoice rolled back");
        problem.setProperty("rolledBackNumber", number);
        problem.setProperty("numberGivenBack", numberGivenBack);
        return problem;
    }
}
