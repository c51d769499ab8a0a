package dev.seqgen.boot.data.jdbc;

import java.util.Set;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;

/**
 * Wraps the {@link JdbcAggregateTemplate} beans in a class-based proxy telling seqgen what a saving call does; it only
 * counts, no I/O: a wrong count costs increments, never values. See docs/design.md#spring-data-jdbc-values.
 */
final class SaveAllCounting implements BeanPostProcessor {

    /** The template's methods that convert aggregates for saving. */
    private static final Set<String> SAVING = Set.of("save", "saveAll", "insert", "insertAll", "update", "updateAll",
            "upsert");

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
        proxy.addAdvice((MethodInterceptor) this::invoke);
        return proxy.getProxy(bean.getClass().getClassLoader());
    }

    /** Counts the SYNC values of {@code saveAll} and {@code insertAll}, and bounds every saving call. */
    private @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        String method = invocation.getMethod().getName();
        boolean insert = method.equals("insert") || method.equals("insertAll");
        boolean batch = method.equals("saveAll") || method.equals("insertAll");
        Object[] arguments = invocation.getArguments();
        SeqgenAggregateCallback counting = callback.getIfAvailable();
        if (counting == null || !SAVING.contains(method) || arguments.length != 1) {
            return invocation.proceed();
        }
        TransactionValues.Call<@Nullable Object> call = batch && arguments[0] instanceof Iterable<?> aggregates
                ? () -> counting.withSyncDraws(aggregates, invocation::proceed) : invocation::proceed;
        return counting.saving(insert, call);
    }
}
