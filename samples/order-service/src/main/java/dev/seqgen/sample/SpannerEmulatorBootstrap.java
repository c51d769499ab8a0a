package dev.seqgen.sample;

import com.google.cloud.spanner.ErrorCode;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerException;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * The {@code spanner} profile on the Cloud Spanner emulator, out of the box: the emulator starts empty, and
 * seqgen creates its table but not the instance or the database, so this creates both, when the
 * {@link Spanner} client (seqgen's {@code seqgenSpanner}, or the application's) is made and before seqgen's
 * store uses it. Only with the profile and with {@code seqgen.spanner.emulator-host} set: on a real instance
 * nothing is created, the instance and database must exist.
 */
@Configuration(proxyBeanMethods = false)
@Profile("spanner")
class SpannerEmulatorBootstrap {

    private static final Log log = LogFactory.getLog(SpannerEmulatorBootstrap.class);

    private static final long TIMEOUT_SECONDS = 30;

    @Bean
    static BeanPostProcessor seqgenSampleSpannerEmulatorBootstrap(Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                String emulator = environment.getProperty("seqgen.spanner.emulator-host");
                if (bean instanceof Spanner spanner && StringUtils.hasText(emulator)) {
                    createInstanceAndDatabase(spanner, emulator, environment);
                }
                return bean;
            }
        };
    }

    private static void createInstanceAndDatabase(Spanner spanner, String emulator, Environment environment) {
        String configured = environment.getProperty("seqgen.spanner.project-id");
        String project = StringUtils.hasText(configured) ? configured : spanner.getOptions().getProjectId();
        String instance = environment.getRequiredProperty("seqgen.spanner.instance-id");
        String database = environment.getRequiredProperty("seqgen.spanner.database-id");
        boolean instanceCreated = createIfMissing(() -> spanner.getInstanceAdminClient().createInstance(
                InstanceInfo.newBuilder(InstanceId.of(project, instance))
                        .setInstanceConfigId(InstanceConfigId.of(project, "emulator-config"))
                        .setDisplayName("seqgen sample")
                        .setNodeCount(1)
                        .build()), "instance " + instance + " on the emulator at " + emulator);
        boolean databaseCreated = createIfMissing(
                () -> spanner.getDatabaseAdminClient().createDatabase(instance, database, List.of()),
                "database " + database + " on the emulator at " + emulator);
        log.info("Cloud Spanner emulator at " + emulator + ": project " + project + ", instance " + instance
                + (instanceCreated ? " (created)" : " (existed)") + ", database " + database
                + (databaseCreated ? " (created)" : " (existed)"));
    }

    /** Whether it was created; false if it existed. */
    private static boolean createIfMissing(Creation creation, String what) {
        try {
            creation.start().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (SpannerException e) {
            return alreadyExists(e, what);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SpannerException spannerError) {
                return alreadyExists(spannerError, what);
            }
            throw new IllegalStateException("Could not create the " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Could not create the " + what + " within " + TIMEOUT_SECONDS
                    + " s: is the emulator running? (gcloud emulators spanner start)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating the " + what, e);
        }
    }

    private static boolean alreadyExists(SpannerException e, String what) {
        if (e.getErrorCode() == ErrorCode.ALREADY_EXISTS) {
            return false;
        }
        throw new IllegalStateException("Could not create the " + what + ": " + e.getMessage()
                + (e.getErrorCode() == ErrorCode.UNAVAILABLE || e.getErrorCode() == ErrorCode.DEADLINE_EXCEEDED
                        ? " (is the emulator running? gcloud emulators spanner start)" : ""), e);
    }

    @FunctionalInterface
    private interface Creation {
        Future<?> start();
    }
}
