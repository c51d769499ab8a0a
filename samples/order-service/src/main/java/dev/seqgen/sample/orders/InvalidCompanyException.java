package dev.seqgen.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A company code that is not 2 to 10 of A-Z and 0-9: 400 with a problem-details body, nothing written. */
class InvalidCompanyException extends ErrorResponseException {

    InvalidCompanyException(String company) {
        super(HttpStatus.BAD_REQUEST, problem(company), null);
    }

    private static ProblemDetail problem(String company) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "Company '" + company + "' is not a company code: 2 to 10 of A-Z and 0-9, such as ACME.");
        problem.setTitle("Invalid company");
        return problem;
    }
}
