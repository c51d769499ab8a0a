package dev.seqgen.boot.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Strategy;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A JPA application with {@code spring.threads.virtual.enabled=true}: eight tasks on Spring's application task
 * executor insert entities whose ids come from seqgen, for every strategy. On JDK 21 and later the tasks run on
 * virtual threads, and a JFR recording of {@code jdk.VirtualThreadPinned} (threshold 0) shows whether seqgen's code
 * pinned a carrier: seqgen holds no monitor across I/O (its locks are {@code ReentrantLock}s, its waits timed
 * {@code Future.get}s), so it may not (see {@link #pinnedBySeqgen} for what counts). On JDK 17 the property has no effect
 * and the same eight tasks run on platform threads; the ids are checked either way. CI runs this suite on JDK 25.
 */
class VirtualThreadsTest {

    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 10;
    private static final int TICKETS_PER_TRANSACTION = 5;
    private static final String PINNED = "jdk.VirtualThreadPinned";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                    TaskExecutionAutoConfiguration.class, SeqgenAutoConfiguration.class))
            .withUserConfiguration(Entities.class)
            .withPropertyValues("spring.threads.virtual.enabled=true", "spring.jpa.hibernate.ddl-auto=update",
                    "seqgen.schema.initialize=always");

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(database -> Arrays.stream(Strategy.values())
                .map(strategy -> Arguments.of(database, strategy)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndStrategies")
    void eightInsertingThreadsGetUniqueIdsAndNoCarrierIsPinnedInSeqgen(TestDatabase database, Strategy strategy)
            throws Exception {
        String table = TestDatabase.uniqueTable();
        Path recordingFile = Files.createTempFile("seqgen-virtual-threads", ".jfr");
        try (Recording recording = new Recording()) {
            // Unknown to JDK 17 (no virtual threads there): enabling it is then a no-op.
            recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            contextRunner.withPropertyValues(datasource(database))
                    .withPropertyValues("seqgen.table=" + table,
                            "seqgen.sequences.vt_tickets.strategy=" + strategy.name().toLowerCase(Locale.ROOT)
                                    .replace('_', '-'),
                            "seqgen.sequences.vt_tickets.block-size=20")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        long[] ids = insertOnTheApplicationTaskExecutor(context);
                        long[] sorted = Concurrently.assertUnique(ids);
                        assertThat(sorted).hasSize(THREADS * TRANSACTIONS_PER_THREAD * TICKETS_PER_TRANSACTION);
                        if (strategy == Strategy.SYNC) {
                            Concurrently.assertContiguousFrom(1, sorted);
                        }
                    });
            recording.stop();
            recording.dump(recordingFile);
            List<String> pinnedInSeqgen = new ArrayList<>();
            int pinned = 0;
            for (RecordedEvent event : RecordingFile.readAllEvents(recordingFile)) {
                if (!event.getEventType().getName().equals(PINNED)) {
                    continue;
                }
                pinned++;
                if (pinnedBySeqgen(event)) {
                    pinnedInSeqgen.add(describe(event));
                }
            }
            System.out.printf("virtual threads %s %s: %d pinned-carrier events, %d by seqgen%n", database,
                    strategy, pinned, pinnedInSeqgen.size());
            assertThat(pinnedInSeqgen).as("carriers pinned by seqgen's code").isEmpty();
        } finally {
            Files.deleteIfExists(recordingFile);
            database.dropTable(table);
            database.dropTable("seqgen_vt_ticket");
        }
    }

    /** Eight tasks on the application task executor, each inserting tickets in transactions; returns the ids. */
    private static long[] insertOnTheApplicationTaskExecutor(AssertableApplicationContext context) throws Exception {
        AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
        EntityManagerFactory entityManagerFactory = context.getBean(EntityManagerFactory.class);
        TransactionTemplate transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        boolean virtualThreadsExist = Runtime.version().feature() >= 21;
        List<Future<long[]>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            tasks.add(executor.submit(() -> {
                assertThat(isVirtual(Thread.currentThread())).as("a task on a virtual thread")
                        .isEqualTo(virtualThreadsExist);
                List<Long> mine = new ArrayList<>();
                for (int i = 0; i < TRANSACTIONS_PER_THREAD; i++) {
                    transactions.executeWithoutResult(status -> {
                        EntityManager entityManager =
                                EntityManagerFactoryUtils.getTransactionalEntityManager(entityManagerFactory);
                        for (int n = 0; n < TICKETS_PER_TRANSACTION; n++) {
                            VirtualThreadTicket ticket = new VirtualThreadTicket();
                            entityManager.persist(ticket);
                            mine.add(ticket.getId());
                        }
                    });
                }
                return mine.stream().mapToLong(Long::longValue).toArray();
            }));
        }
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> task : tasks) {
            all.add(task.get(5, TimeUnit.MINUTES));
        }
        return all.stream().flatMapToLong(Arrays::stream).toArray();
    }

    /** {@code Thread.isVirtual()}, which JDK 17 (this module's release) does not have. */
    private static boolean isVirtual(Thread thread) {
        try {
            Method isVirtual = Thread.class.getMethod("isVirtual");
            return (Boolean) isVirtual.invoke(thread);
        } catch (NoSuchMethodException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether seqgen's own code pinned the carrier. Since JDK 24 a monitor no longer pins; the event names what did
     * ({@code pinnedReason}): a class initialised by another thread (once, at first use: not a lock held across I/O)
     * is not counted, nor a pin raised inside a driver or Hibernate frame above seqgen's (their own monitors, native
     * frames). Before JDK 24 (no such field) a monitor held by any frame pins, so any pin with a seqgen frame on the
     * stack counts.
     */
    private static boolean pinnedBySeqgen(RecordedEvent event) {
        if (event.getStackTrace() == null) {
            return false;
        }
        List<RecordedFrame> frames = event.getStackTrace().getFrames();
        if (frames.stream().noneMatch(VirtualThreadsTest::isSeqgen)) {
            return false;
        }
        if (!event.hasField("pinnedReason")) {
            return true;
        }
        if (String.valueOf(event.getString("pinnedReason")).contains("initialization")) {
            return false;
        }
        return frames.stream().filter(frame -> !isJdk(frame)).findFirst().filter(VirtualThreadsTest::isSeqgen)
                .isPresent();
    }

    private static boolean isJdk(RecordedFrame frame) {
        String type = frame.getMethod() == null ? "" : frame.getMethod().getType().getName();
        return type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.");
    }

    private static boolean isSeqgen(RecordedFrame frame) {
        return frame.getMethod() != null && frame.getMethod().getType().getName().startsWith("dev.seqgen.")
                && !frame.getMethod().getType().getName().startsWith("dev.seqgen.boot.virtualthreads.");
    }

    private static String describe(RecordedEvent event) {
        StringBuilder text = new StringBuilder(event.getDuration().toString());
        for (String field : List.of("pinnedReason", "blockingOperation")) {
            if (event.hasField(field)) {
                text.append(' ').append(field).append('=').append(event.getString(field));
            }
        }
        for (RecordedFrame frame : event.getStackTrace().getFrames()) {
            text.append("\n    at ").append(frame.getMethod().getType().getName()).append('.')
                    .append(frame.getMethod().getName()).append(':').append(frame.getLineNumber());
        }
        return text.toString();
    }

    private static String[] datasource(TestDatabase database) {
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        return new String[] {"spring.datasource.url=" + shared.getJdbcUrl(),
                "spring.datasource.username=" + shared.getUsername(),
                "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword())};
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = VirtualThreadTicket.class)
    static class Entities {
    }
}
