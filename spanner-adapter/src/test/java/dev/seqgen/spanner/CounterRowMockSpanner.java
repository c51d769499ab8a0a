package dev.seqgen.spanner;

import com.google.cloud.spanner.MockSpannerServiceImpl;
import com.google.cloud.spanner.Statement;
import com.google.protobuf.ListValue;
import com.google.protobuf.Value;
import com.google.spanner.v1.ExecuteSqlRequest;
import com.google.spanner.v1.PartialResultSet;
import com.google.spanner.v1.ResultSetMetadata;
import com.google.spanner.v1.StructType;
import com.google.spanner.v1.Type;
import com.google.spanner.v1.TypeCode;
import io.grpc.stub.StreamObserver;

/**
 * The client library's in-process mock server, plus (when started) one counter row behind the store's
 * reservation statement, so that successive reservations get successive blocks. The row moves when the
 * statement runs, committed or not. Subclasses inject faults around it.
 */
public class CounterRowMockSpanner extends MockSpannerServiceImpl {

    /** The reservation statement the store sends for the default table. */
    public static final String RESERVE_SQL = "UPDATE seqgen_sequences SET next_value = next_value + @count"
            + " WHERE name = @name AND next_value <= @lastStart THEN RETURN next_value";

    /** The start of the give-back statement the store sends for the default table. */
    public static final String GIVE_BACK_SQL = "UPDATE seqgen_sequences SET next_value = @restored";

    /** The read of a row the store sends for the default table. */
    public static final String SELECT_SQL = "SELECT next_value FROM seqgen_sequences WHERE name = @name";

    private final Object rowLock = new Object();
    private volatile boolean counting;
    private long nextValue;

    /** Puts the counter row behind the reservation statement, at {@code initialValue}. */
    public void startCounterRow(long initialValue) {
        synchronized (rowLock) {
            nextValue = initialValue;
            counting = true;
        }
    }

    /** The counter row's {@code next_value}. */
    public long nextValue() {
        synchronized (rowLock) {
            return nextValue;
        }
    }

    /** Whether the request is a reservation that the counter row answers. */
    protected boolean answersFromCounterRow(ExecuteSqlRequest request) {
        return counting && request.getSql().equals(RESERVE_SQL);
    }

    /** Called, holding the row's lock, for every reservation the counter row answered. */
    protected void reservationAnswered() {
    }

    @Override
    public void executeStreamingSql(ExecuteSqlRequest request, StreamObserver<PartialResultSet> responseObserver) {
        if (!answersFromCounterRow(request)) {
            super.executeStreamingSql(request, responseObserver);
            return;
        }
        synchronized (rowLock) {
            long count = Long.parseLong(request.getParams().getFieldsOrThrow("count").getStringValue());
            long lastStart = Long.parseLong(request.getParams().getFieldsOrThrow("lastStart").getStringValue());
            com.google.spanner.v1.ResultSet rows = nextValue <= lastStart ? nextValueRows(nextValue += count)
                    : nextValueRows();
            reservationAnswered();
            putPartialStatementResult(StatementResult.query(Statement.of(RESERVE_SQL), rows));
            super.executeStreamingSql(request, responseObserver);
        }
    }

    /** A result of one INT64 column, {@code next_value}, with a row per value. */
    public static com.google.spanner.v1.ResultSet nextValueRows(long... values) {
        com.google.spanner.v1.ResultSet.Builder rows = com.google.spanner.v1.ResultSet.newBuilder()
                .setMetadata(ResultSetMetadata.newBuilder().setRowType(StructType.newBuilder()
                        .addFields(StructType.Field.newBuilder().setName("next_value")
                                .setType(Type.newBuilder().setCode(TypeCode.INT64)))));
        for (long value : values) {
            rows.addRows(ListValue.newBuilder().addValues(Value.newBuilder().setStringValue(Long.toString(value))));
        }
        return rows.build();
    }
}
