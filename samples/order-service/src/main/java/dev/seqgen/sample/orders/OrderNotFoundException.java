package dev.seqgen.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** No order with this id: 404 with a problem-details body. */
class OrderNotFoundException extends ErrorResponseException {

    OrderNotFoundException(long id) {
        super(HttpStatus.NOT_FOUND, problem(id), null);
    }

    private static ProblemDetail problem(long id) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "No order with id " + id + ".");
        problem.setTitle("Order not found");
        return problem;
    }
}
