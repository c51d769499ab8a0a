package dev.seqgen.sample.orders;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import java.math.BigDecimal;
import java.util.List;

/** The body of {@code POST /orders}. */
public record NewOrder(
        @NotBlank @Size(max = 100) String customer,
        @NotEmpty @Size(max = 100) List<@NotNull @Valid Line> lines) {

    /** One line of a new order. */
    public record Line(
            @NotBlank @Size(max = 100) String product,
            @Positive @Max(10_000) int quantity,
            @NotNull @DecimalMin("0.00") @Digits(integer = 8, fraction = 2) BigDecimal unitPrice) {
    }
}
