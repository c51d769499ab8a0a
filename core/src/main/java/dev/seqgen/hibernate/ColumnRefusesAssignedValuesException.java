package dev.seqgen.hibernate;

import dev.seqgen.SequenceException;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Columns seqgen assigns values to refuse assigned values ({@code GENERATED ALWAYS AS IDENTITY}, computed columns):
 * every such column found at start-up, each in the Where / Problem / Action layout of the message.
 */
public class ColumnRefusesAssignedValuesException extends SequenceException {

    private static final long serialVersionUID = 1L;

    /**
     * One column that refuses assigned values.
     *
     * @param where the entity, property and sequence, as seqgen names them in errors
     * @param reason what the column is
     * @param fix the change that lets the column take assigned values
     */
    public record RefusingColumn(String sequenceName, String where, String table, String column, String database,
            String reason, String fix) {

        String describe() {
            return "  Where: " + where + ", column " + column + " of table " + table + " (" + database + ")\n"
                    + "  Problem: the column is " + reason + "\n"
                    + "  Action: " + fix;
        }
    }

    private final List<RefusingColumn> columns;

    /** Creates the exception for the columns (at least one) of a start that refuse assigned values. */
    public ColumnRefusesAssignedValuesException(List<RefusingColumn> columns) {
        super("seqgen: " + message(columns), null);
        this.columns = List.copyOf(columns);
    }

    private static String message(List<RefusingColumn> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("no column");
        }
        String count = columns.size() == 1 ? "a column seqgen assigns values to refuses"
                : columns.size() + " columns seqgen assigns values to refuse";
        return count + " assigned values, so every insert into "
                + (columns.size() == 1 ? "it" : "them") + " would fail:\n"
                + columns.stream().map(RefusingColumn::describe).collect(Collectors.joining("\n"));
    }

    /** {@return every column that refuses assigned values, at least one} */
    public List<RefusingColumn> columns() {
        return columns;
    }

    /** {@return the changes (DDL or mapping) that let the columns take assigned values, joined by {@code "; "}} */
    public String fix() {
        return columns.stream().map(RefusingColumn::fix).collect(Collectors.joining("; "));
    }
}
