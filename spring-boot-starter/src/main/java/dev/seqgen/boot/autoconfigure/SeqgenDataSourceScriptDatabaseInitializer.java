package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.jdbc.JdbcDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;

/**
 * Creates seqgen's sequence table with the script of the database's platform
 * ({@code seqgen.jdbc.schema}, by default {@code classpath:dev/seqgen/schema/@@platform@@.sql}) as
 * {@code seqgen.jdbc.initialize-schema} says: on embedded databases only (the default), always, or never. Like
 * Spring Batch's and Spring Session's initializers, it is one of Spring Boot's database initializers, so beans
 * that use the database ({@code @DependsOnDatabaseInitialization}) start after it. Define a bean of this type to
 * replace it.
 */
public class SeqgenDataSourceScriptDatabaseInitializer extends DataSourceScriptDatabaseInitializer {

    /** The scripts shipped with seqgen, one per platform. */
    public static final String DEFAULT_SCHEMA_LOCATION = "classpath:dev/seqgen/schema/@@platform@@.sql";

    /**
     * Creates the initializer.
     *
     * @param dataSource the DataSource that holds the sequence table
     * @param mode when to run the script
     * @param schemaLocation the script, {@code @@platform@@} standing for the database's platform
     */
    public SeqgenDataSourceScriptDatabaseInitializer(DataSource dataSource, DatabaseInitializationMode mode,
            String schemaLocation) {
        super(dataSource, settings(mode, locations(requireSupported(dataSource), mode, schemaLocation)));
    }

    /**
     * Fails first, before any script is looked for, when seqgen has no dialect for the database: the message names
     * the database product and the supported ones, not a script that does not exist. A database that cannot be
     * reached is left to the initializer and the store, which report it.
     */
    private static DataSource requireSupported(DataSource dataSource) {
        String product;
        try (Connection connection = dataSource.getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            return dataSource;
        }
        try {
            JdbcDialect.forProductName(product);
        } catch (IllegalArgumentException unsupported) {
            throw new SeqgenSetupException(unsupported.getMessage(), "Keep seqgen's sequences in a database it"
                    + " supports: point the application's DataSource at one, or give seqgen a store of its own (a"
                    + " SequenceStore bean); or set seqgen.enabled=false to leave seqgen out.", unsupported);
        }
        return dataSource;
    }

    /**
     * The script to run, resolved only where it may run: with {@code never} nothing is resolved, and a database
     * whose platform Spring Boot cannot tell (Cloud Spanner through its JDBC driver, for instance) runs no
     * script under {@code embedded}, since it is not an embedded database; under {@code always} it is an error
     * naming the properties.
     */
    private static List<String> locations(DataSource dataSource, DatabaseInitializationMode mode,
            String schemaLocation) {
        if (mode == DatabaseInitializationMode.NEVER) {
            return List.of();
        }
        if (!schemaLocation.contains("@@platform@@")) {
            return List.of(schemaLocation);
        }
        try {
            return resolve(dataSource, schemaLocation);
        } catch (IllegalStateException unknownPlatform) {
            if (mode == DatabaseInitializationMode.ALWAYS) {
                throw new SequenceConfigurationException("seqgen.jdbc.schema", schemaLocation, "a script location"
                        + " without @@platform@@ (Spring Boot cannot tell this database's platform: "
                        + unknownPlatform.getMessage() + "), or seqgen.jdbc.initialize-schema=never with the table"
                        + " created by the application's migrations");
            }
            return List.of();
        }
    }

    private static DatabaseInitializationSettings settings(DatabaseInitializationMode mode, List<String> locations) {
        DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
        settings.setSchemaLocations(locations);
        settings.setMode(mode);
        return settings;
    }

    /**
     * The script for this DataSource's database: {@code @@platform@@} replaced by its platform (MySQL uses the
     * MariaDB script).
     *
     * @param dataSource the DataSource
     * @param schemaLocation the script location, possibly with {@code @@platform@@}
     * @return the resolved location
     */
    static List<String> resolve(DataSource dataSource, String schemaLocation) {
        String spanner = spannerPlatform(dataSource);
        if (spanner != null) {
            return List.of(schemaLocation.replace("@@platform@@", spanner));
        }
        return new PlatformPlaceholderDatabaseDriverResolver().withDriverPlatform(DatabaseDriver.MYSQL, "mariadb")
                .resolveAll(dataSource, schemaLocation);
    }

    /**
     * {@code spanner} or {@code spanner-postgresql} for Cloud Spanner through its JDBC driver, which Spring Boot's
     * database drivers do not know; null for any other database.
     */
    private static @Nullable String spannerPlatform(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            if (product == null || !product.startsWith("Google Cloud Spanner")) {
                return null;
            }
            return product.contains("PostgreSQL") ? "spanner-postgresql" : "spanner";
        } catch (SQLException e) {
            return null; // Spring Boot's own detection reports the database
        }
    }
}
