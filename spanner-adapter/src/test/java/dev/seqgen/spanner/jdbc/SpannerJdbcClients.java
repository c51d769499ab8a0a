package dev.seqgen.spanner.jdbc;

import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.connection.SpannerPool;

import java.lang.reflect.Field;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Spanner clients the Spanner JDBC driver opens for its connections, and the check that every test class closes
 * them before the server they reach goes away.
 *
 * <p>The driver keeps one {@link Spanner} client per connection URL in a JVM-wide pool ({@link SpannerPool}), open
 * after the last connection closed, and closes what is left in a shutdown hook when the JVM exits. A client whose
 * server has stopped (a test's mock server, shut down after each test) cannot end its sessions, and its close waits:
 * the hook then held the test JVM past {@code System.exit}, and Surefire killed it after 30 s ("Surefire is going to
 * kill self fork JVM"). So a test class that opens JDBC connections to Spanner calls {@link #close()} once its
 * connections are closed and while its server still runs.
 *
 * <p>As an extension, registered for every test class of this module (automatic extension registration, switched
 * on in the module's Surefire configuration), it fails the class that leaves a client in the pool that was not there
 * before it ran, naming how many and what to do.
 */
public final class SpannerJdbcClients implements BeforeAllCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SpannerJdbcClients.class);

    /**
     * Closes every client of the driver's pool, while the servers they reach still run.
     *
     * @throws com.google.cloud.spanner.SpannerException if a JDBC connection to Spanner is still open
     */
    public static void close() {
        SpannerPool.closeSpannerPool();
    }

    /** How many clients the driver's pool holds now. */
    static int pooled() {
        try {
            Field instance = SpannerPool.class.getDeclaredField("INSTANCE");
            instance.setAccessible(true);
            Object pool = instance.get(null);
            Field spanners = SpannerPool.class.getDeclaredField("spanners");
            spanners.setAccessible(true);
            synchronized (pool) {
                return ((Map<?, ?>) spanners.get(pool)).size();
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the Spanner JDBC driver's SpannerPool has changed: " + e, e);
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put("pooled", pooled());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Integer before = context.getStore(NAMESPACE).get("pooled", Integer.class);
        int after = pooled();
        if (before != null && after > before) {
            throw new AssertionError(context.getRequiredTestClass().getSimpleName() + " left " + (after - before)
                    + " Spanner client(s) of the Spanner JDBC driver open: close its connections, then call"
                    + " SpannerJdbcClients.close() while the server they reach still runs. Left open, the driver's"
                    + " shutdown hook closes them when the JVM exits, and a client whose server has stopped holds"
                    + " the test JVM past System.exit until Surefire kills it.");
        }
    }
}
