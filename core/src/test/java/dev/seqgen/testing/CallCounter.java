package dev.seqgen.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the calls made on an interface ({@code DataSource}, Spanner's {@code DatabaseClient}): a test that
 * expects a rejection before any database access asserts that nothing was called.
 */
public final class CallCounter {

    private final AtomicInteger calls = new AtomicInteger();

    /** Every call made on the proxies this counter returned. */
    public int calls() {
        return calls.get();
    }

    /** A proxy of {@code target} that counts every call, then passes it on. */
    public <T> T counting(Class<T> type, T target) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            calls.incrementAndGet();
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
