package dev.seqgen;

import dev.seqgen.spi.SequenceStore.Where;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A period of a document's own date that a sequence's series can be keyed by ({@code seriesBy = "issueDate:year"}):
 * the part of the series key a date gives, and the bounds that select the rows of that period in the document's
 * table for the adoption of the numbers a series already holds. One rule for seqgen's frameworks (the Hibernate
 * generators and the Spring Data JDBC callback), so that a year is the same series whichever of them numbers it. Of a
 * {@link LocalDate} or a {@link LocalDateTime} (its date), never of the clock.
 */
public enum SeriesPeriod {

    /** The calendar year: key part {@code 2026}. */
    YEAR,

    /** The calendar month: key part {@code 2026-03}. */
    MONTH;

    /**
     * The period a {@code seriesBy} entry names after its colon.
     *
     * @param name {@code year} or {@code month}, in any case, spaces around ignored
     * @return the period, or empty for any other name
     */
    public static Optional<SeriesPeriod> named(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "year" -> Optional.of(YEAR);
            case "month" -> Optional.of(MONTH);
            default -> Optional.empty();
        };
    }

    /**
     * Whether a period can be taken of an attribute of this type.
     *
     * @param type the attribute's type
     * @return true for {@link LocalDate} and {@link LocalDateTime}
     */
    public static boolean dates(Class<?> type) {
        return type == LocalDate.class || type == LocalDateTime.class;
    }

    /**
     * The part of a series key a date gives: {@code 2026} for a year, {@code 2026-03} for a month.
     *
     * @param date a {@link LocalDate} or {@link LocalDateTime}
     * @return the key part
     * @throws ClassCastException if the date is of another type
     */
    public String keyPart(Object date) {
        LocalDate day = day(date);
        return this == YEAR ? String.format(Locale.ROOT, "%04d", day.getYear())
                : String.format(Locale.ROOT, "%04d-%02d", day.getYear(), day.getMonthValue());
    }

    /**
     * The condition that selects the rows of a date's period in a table: the column at or after the period's first
     * day and before the next period's, bound as values of the column's type.
     *
     * @param column the date column, as the table's SQL names it
     * @param date a {@link LocalDate} or {@link LocalDateTime} of the period
     * @param columnType the type the column is mapped to: {@link LocalDate} or {@link LocalDateTime} (start of day)
     * @return the condition
     * @throws ClassCastException if the date is of another type
     */
    public Where rows(String column, Object date, Class<?> columnType) {
        LocalDate day = day(date);
        LocalDate start = this == YEAR ? day.withDayOfYear(1) : day.withDayOfMonth(1);
        LocalDate end = this == YEAR ? start.plusYears(1) : start.plusMonths(1);
        return columnType == LocalDateTime.class ? new Where(column, start.atStartOfDay(), end.atStartOfDay())
                : new Where(column, start, end);
    }

    private static LocalDate day(Object date) {
        return Objects.requireNonNull(date, "date") instanceof LocalDateTime time ? time.toLocalDate()
                : (LocalDate) date;
    }
}
