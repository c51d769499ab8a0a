package dev.seqgen.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** The order has its invoice already: 409 with a problem-details body. */
class InvoiceAlreadyIssuedException extends ErrorResponseException {

    InvoiceAlreadyIssuedException(long orderId) {
        super(HttpStatus.CONFLICT, problem(orderId), null);
    }

    private static ProblemDetail problem(long orderId) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
                "Order " + orderId + " has been invoiced already.");
        problem.setTitle("Invoice already issued");
        return problem;
    }
}
