package dev.seqgen.hibernate;

import dev.seqgen.SequenceException;
import java.util.List;
import java.util.stream.Collectors;

/** Columns seqgen assigns values to refuse them (identity, computed columns): all found at start-up, in the message. */
public class ColumnRefusesAssignedValuesException extends SequenceException {

    private static final long serialVersionUID = 1L;

    /** A refusing column: {@code where} names entity, property and sequence; {@code fix} lets it take values. */
    public record RefusingColumn(String sequenceName, String where, String table, String column, String database,
            String reason, String fix) {
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
        boolean one = columns.size() == 1;
        return (one ? "a column seqgen assigns values to refuses" : columns.size() + " columns seqgen assigns values"
                + " to refuse") + " assigned values, so every insert into " + (one ? "it" : "them") + " would fail:\n"
                + columns.stream().map(c -> "  Where: " + c.where() + ", column " + c.column() + " of table "
                        + c.table() + " (" + c.database() + ")\n  Problem: the column is " + c.reason()
                        + "\n  Action: " + c.fix()).collect(Collectors.joining("\n"));
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
