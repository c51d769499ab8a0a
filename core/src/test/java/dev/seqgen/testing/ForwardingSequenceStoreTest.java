package dev.seqgen.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.spi.SequenceStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ForwardingSequenceStore} forwards every method of {@link SequenceStore}, its default methods included: a
 * method added to the SPI and not forwarded would run the interface's default on the wrapper, and a wrapped store
 * would lose that capability without a test noticing.
 */
class ForwardingSequenceStoreTest {

    private static final Map<Class<?>, Object> ARGUMENTS = Map.of(long.class, 0L, boolean.class, false,
            int.class, 0, SequenceStore.Sizing.class, (SequenceStore.Sizing) (waited, ahead, behind) -> 1);

    @TestFactory
    Stream<DynamicTest> forwardsEveryMethodOfTheSpi() {
        return Arrays.stream(SequenceStore.class.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .map(method -> DynamicTest.dynamicTest(method.getName() + Arrays.toString(method.getParameterTypes()),
                        () -> assertForwards(method)));
    }

    private static void assertForwards(Method method) throws IllegalAccessException, NoSuchMethodException {
        List<Method> reached = new ArrayList<>();
        SequenceStore delegate = (SequenceStore) Proxy.newProxyInstance(SequenceStore.class.getClassLoader(),
                new Class<?>[] {SequenceStore.class}, (proxy, called, arguments) -> {
                    reached.add(called);
                    return null;
                });
        SequenceStore forwarding = new ForwardingSequenceStore(delegate) {
        };
        Object[] arguments = Arrays.stream(method.getParameterTypes()).map(ARGUMENTS::get).toArray();
        try {
            method.invoke(forwarding, arguments);
        } catch (InvocationTargetException e) {
            // a null answer of the delegate may fail the caller's own handling; what it reached is what counts
        }
        // reserveSized goes through the wrapper's reserve (ForwardingSequenceStore), so a wrapper that overrides reserve
        // sees every reservation; the wrapped store's view of the queue at its row is not forwarded.
        Method expected = method.getName().equals("reserveSized")
                ? SequenceStore.class.getMethod("reserve", String.class, long.class, long.class) : method;
        assertThat(reached).as("%s reaches the wrapped store", method).containsExactly(expected);
    }
}
