package dev.seqgen;

import dev.seqgen.spi.SequenceStore.Where;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A period of a document's own {@link LocalDate} or {@link LocalDateTime} (never the clock) that series can be keyed
 * by ({@code seriesBy = "issueDate:year"}): the key part, and the rows of that period for adoption. One rule for all of
 * seqgen's frameworks, so a year is the same series whichever numbers it.
 */
public enum SeriesPeriod {

    /** The calendar year: key part {@code 2026}. */
    YEAR,

    /** The calendar month: key part {@code 2026-03}. */
    MONTH;

    /** {@return the period {@code year} or {@code month} (any case, trimmed) names, or empty for another name} */
    public static Optional<SeriesPeriod> named(String name) {
        return Arrays.stream(values()).filter(period -> period.name().equalsIgnoreCase(name.trim())).findFirst();
    }

    /** {@return whether a period can be taken of this type: {@link LocalDate} or {@link LocalDateTime}} */
    public static boolean dates(Class<?> type) {
        return type == LocalDate.class || type == LocalDateTime.class;
    }

    /** {@return the key part of a {@link LocalDate} or {@link LocalDateTime}: {@code 2026}, or {@code 2026-03}} */
    public String keyPart(Object date) {
        LocalDate day = day(date);
        return this == YEAR ? String.format(Locale.ROOT, "%04d", day.getYear())
                : String.format(Locale.ROOT, "%04d-%02d", day.getYear(), day.getMonthValue());
    }

    /**
     * {@return the condition selecting a date's period in a column}: from the period's first day to the next's, bound
     * as {@code columnType}, {@link LocalDate} or {@link LocalDateTime} (start of day).
     * @throws ClassCastException if the date is not a {@link LocalDate} or {@link LocalDateTime}
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
