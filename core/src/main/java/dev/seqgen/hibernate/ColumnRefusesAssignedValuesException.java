package dev.seqgen.hibernate;

import dev.seqgen.SequenceException;

/**
 * A column whose values seqgen assigns (a {@code @SeqgenGenerator} id, a {@code @SeqgenNumber}) refuses assigned
 * values: an identity column declared {@code GENERATED ALWAYS AS IDENTITY}, or a computed column. Found when the
 * session factory starts, from the database's information schema, instead of at every insert.
 */
public class ColumnRefusesAssignedValuesException extends SequenceException {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final String column;
    private final String fix;

    /**
     * Creates the exception.
     *
     * @param sequenceName the sequence that serves the column
     * @param where the entity and property, as seqgen names them in errors
     * @param table the table
     * @param column the column
     * @param database the database product
     * @param reason what the column is
     * @param fix the change that lets the column take assigned values
     */
    public ColumnRefusesAssignedValuesException(String sequenceName, String where, String table, String column,
            String database, String reason, String fix) {
        super(sequenceName, where + ": column " + column + " of table " + table + " in the " + database
                + " database is " + reason + ", and seqgen assigns this column's values, so every insert would fail."
                + " Change the column: " + fix, null);
        this.table = table;
        this.column = column;
        this.fix = fix;
    }

    /**
     * Returns the table.
     *
     * @return the table as mapped
     */
    public String table() {
        return table;
    }

    /**
     * Returns the column.
     *
     * @return the column as mapped
     */
    public String column() {
        return column;
    }

    /**
     * Returns the change that lets the column take assigned values.
     *
     * @return the DDL or mapping change
     */
    public String fix() {
        return fix;
    }
}
