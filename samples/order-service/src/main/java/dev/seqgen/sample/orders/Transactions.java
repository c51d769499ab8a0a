package dev.seqgen.sample.orders;

import com.google.cloud.spanner.jdbc.JdbcSqlException;
import com.google.rpc.Code;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.Assert;

/**
 * The service's read-write transactions: each unit of work runs in a transaction of its own, and runs again,
 * whole, in a new transaction when Cloud Spanner aborted it.
 *
 * <p>Spanner may abort any read-write transaction (a lock conflict; the emulator runs one read-write
 * transaction at a time and aborts the others) and expects the application to run it again. The Spanner JDBC
 * driver can replay an aborted transaction's statements itself ({@code retryAbortsInternally}), but the replay
 * fails whenever a statement sees other data ({@code AbortedDueToConcurrentModificationException}), as a
 * {@code sync} invoice number does when another invoice took a number meanwhile; the {@code spanner} profile
 * turns that replay off. The application retries the unit of work, not its statements: new entities in a new
 * session and transaction. A {@code sync} number is taken again in the new transaction, and since the aborted
 * transaction's increment was rolled back with it, the committed numbers stay gapless; ids the aborted attempt
 * took from the other strategies become gaps, as with any rollback.
 *
 * <p>Only aborts are retried, at most {@value #MAX_ATTEMPTS} attempts with a short randomised pause that
 * doubles after each; any other failure (no such order, an invoice already issued, the simulated failure) ends
 * the transaction at once, rolled back. H2, PostgreSQL and MariaDB never raise a Spanner abort, so there every
 * unit of work runs once. Every abort counts in the meter {@value #ABORTS}.
 */
@Component
class Transactions {

    private static final Log log = LogFactory.getLog(Transactions.class);

    /** The counter of read-write transactions Spanner aborted, whether they were run again or not. */
    static final String ABORTS = "sample.transactions.aborted";

    /**
     * Attempts of one unit of work before an abort is reported to the caller: enough for the emulator, which
     * aborts every read-write transaction that meets another one.
     */
    static final int MAX_ATTEMPTS = 20;

    /** The pause after the first abort, in milliseconds; it doubles after each further one, up to the maximum. */
    private static final long FIRST_PAUSE_MILLIS = 5;

    /** The longest pause between two attempts, in milliseconds. */
    private static final long MAX_PAUSE_MILLIS = 400;

    private final TransactionTemplate template;

    private final Counter aborts;

    Transactions(PlatformTransactionManager transactionManager, MeterRegistry meters) {
        this.template = new TransactionTemplate(transactionManager);
        this.aborts = Counter.builder(ABORTS).baseUnit("transactions")
                .description("Read-write transactions Cloud Spanner aborted (each run again, up to "
                        + MAX_ATTEMPTS + " attempts)")
                .register(meters);
    }

    /**
     * Runs the work in a new read-write transaction, committed when it returns and rolled back when it throws;
     * again, in another new transaction, when Spanner aborted the transaction.
     *
     * @param work the unit of work; it must create its entities itself, since each attempt starts afresh
     * @return what the work returned in the attempt that committed
     * @throws RuntimeException what the work threw, or the abort of the last attempt
     */
    <T> T readWrite(Supplier<T> work) {
        // Inside a caller's transaction, a retry would run in the transaction Spanner aborted.
        Assert.state(!TransactionSynchronizationManager.isActualTransactionActive(),
                "A retried transaction must not run inside another transaction");
        for (int attempt = 1; ; attempt++) {
            try {
                return template.execute(status -> work.get());
            } catch (RuntimeException e) {
                if (!abortedBySpanner(e)) {
                    throw e;
                }
                aborts.increment();
                if (attempt == MAX_ATTEMPTS) {
                    throw e;
                }
                if (log.isDebugEnabled()) {
                    log.debug("Spanner aborted the transaction (attempt " + attempt + " of " + MAX_ATTEMPTS
                            + "); running it again: " + e);
                }
                pause(attempt, e);
            }
        }
    }

    /** Whether Spanner aborted the transaction: the JDBC driver's exception with code ABORTED, in the causes. */
    static boolean abortedBySpanner(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JdbcSqlException spanner && spanner.getCode() == Code.ABORTED) {
                return true;
            }
        }
        return false;
    }

    private static void pause(int attempt, RuntimeException abort) {
        long ceiling = Math.min(MAX_PAUSE_MILLIS, FIRST_PAUSE_MILLIS << Math.min(attempt - 1, 16));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abort;
        }
    }
}
