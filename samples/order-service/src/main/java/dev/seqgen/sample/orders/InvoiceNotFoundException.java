package dev.seqgen.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** No invoice with this number: 404 with a problem-details body. */
class InvoiceNotFoundException extends ErrorResponseException {

    InvoiceNotFoundException(String number) {
        super(HttpStatus.NOT_FOUND, problem(number), null);
    }

    private static ProblemDetail problem(String number) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                "No invoice with number " + number + ".");
        problem.setTitle("Invoice not found");
        return problem;
    }
}
