package dev.seqgen.boot.data.jdbc;

import java.util.Map;
import java.util.Set;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;

/**
 * Tells seqgen what a call of the {@link JdbcAggregateTemplate} beans (which repositories save through) will do:
 * how many SYNC values a {@code saveAll} or {@code insertAll} will draw, so that one increment per sequence takes them
 * all, that the aggregates of {@code insert} and {@code insertAll} are new even when they hold an id, and when a saving
 * call ends (which drops what the call's events left for callbacks that never ran). It wraps the
 * beans in a class-based proxy whose interceptor counts the call's new aggregates before the call proceeds.
 *
 * <pre>
 * Design: why a proxy of the template
 *
 * Spring Data JDBC runs the callbacks one aggregate at a time; no callback, event or repository hook sees the
 * collection of a saveAll. The template's saveAll and insertAll are the one place that does, for repositories and
 * direct callers alike. The proxy is class-based, so the bean keeps its type (applications inject
 * JdbcAggregateTemplate as well as JdbcAggregateOperations), and it only counts: no I/O, nothing changes if the
 * count is wrong. The count is a hint to TransactionValues for the duration of the call (a thread-local): the first
 * increment of each counted sequence takes at least the values still expected. A count too high leaves values that
 * the transaction gives back before it commits; too low, and the next increment grows as without a count.
 * </pre>
 */
final class SaveAllCounting implements BeanPostProcessor {

    private final ObjectProvider<SeqgenAggregateCallback> callback;

    SaveAllCounting(ObjectProvider<SeqgenAggregateCallback> callback) {
        this.callback = callback;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof JdbcAggregateTemplate)) {
            return bean;
        }
        ProxyFactory proxy = new ProxyFactory(bean);
        proxy.setProxyTargetClass(true);
        proxy.addAdvice(new Interceptor(callback));
        return proxy.getProxy(bean.getClass().getClassLoader());
    }

    /**
     * Counts the SYNC values of {@code saveAll(Iterable)} and {@code insertAll(Iterable)} calls, and bounds every
     * saving call (SeqgenAggregateCallback.saving).
     */
    private static final class Interceptor implements MethodInterceptor {

        /** The other methods of the template that convert aggregates for saving. */
        private static final Set<String> SAVING = Set.of("save", "update", "updateAll", "upsert");

        private final ObjectProvider<SeqgenAggregateCallback> callback;

        Interceptor(ObjectProvider<SeqgenAggregateCallback> callback) {
            this.callback = callback;
        }

        @Override
        public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
            String method = invocation.getMethod().getName();
            boolean insert = method.equals("insert") || method.equals("insertAll");
            boolean batch = method.equals("saveAll") || method.equals("insertAll");
            boolean save = insert || batch || SAVING.contains(method);
            Object[] arguments = invocation.getArguments();
            SeqgenAggregateCallback counting = callback.getIfAvailable();
            if (counting == null || !save || arguments.length != 1) {
                return invocation.proceed();
            }
            TransactionValues.Call<@Nullable Object> call = () -> counting.saving(invocation::proceed);
            if (batch && arguments[0] instanceof Iterable<?> aggregates) {
                Map<String, Integer> draws = counting.syncDraws(aggregates, insert);
                if (!draws.isEmpty()) {
                    TransactionValues.Call<@Nullable Object> counted = call;
                    call = () -> counting.withExpectedDraws(draws, counted);
                }
            }
            return insert ? counting.inserting(call) : call.run();
        }
    }
}
