package dev.seqgen.jmh.table;

/**
 * The databases the strategy table runs on, with their default connection settings and, for the JDBC ones,
 * the SQL of their native sequences (the one place this module keeps dialect SQL; the sequence table's SQL is
 * seqgen's stores').
 */
enum Database {

    H2("h2", "jdbc:h2:mem:strategy_table;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=120000", "sa", "") {
        @Override
        String nextValueSql(String sequence) {
            return "SELECT NEXT VALUE FOR " + sequence;
        }
    },

    POSTGRES("postgres", "jdbc:postgresql://localhost:5432/seqgen_test", "seqgen", "seqgen") {
        @Override
        String nextValueSql(String sequence) {
            return "SELECT nextval('" + sequence + "')";
        }
    },

    MARIADB("mariadb", "jdbc:mariadb://127.0.0.1:3306/seqgen_test", "seqgen", "seqgen") {
        @Override
        String nextValueSql(String sequence) {
            return "SELECT NEXTVAL(" + sequence + ")";
        }
    },

    SPANNER_EMULATOR("spanner-emulator",
            "cloudspanner://localhost:9010/projects/seqgen-bench/instances/seqgen-bench/databases/strategy-table",
            "", "") {
        @Override
        Backend open(TableOptions options) {
            return new SpannerEmulatorBackend(options);
        }

        @Override
        boolean hasNativeSequences() {
            return false;
        }

        @Override
        boolean canInjectLatency() {
            return false;
        }

        @Override
        String nextValueSql(String sequence) {
            throw new UnsupportedOperationException("no native sequences on " + option);
        }
    };

    final String option;
    final String defaultUrl;
    final String defaultUser;
    final String defaultPassword;

    Database(String option, String defaultUrl, String defaultUser, String defaultPassword) {
        this.option = option;
        this.defaultUrl = defaultUrl;
        this.defaultUser = defaultUser;
        this.defaultPassword = defaultPassword;
    }

    /** Connects to the database. */
    Backend open(TableOptions options) {
        return new JdbcBackend(options);
    }

    /** Whether the hibernate-pooled, seqgen-pooled and native-sequence modes can run here. */
    boolean hasNativeSequences() {
        return true;
    }

    /** Whether {@code --store-latency} can be injected into this database's commits. */
    boolean canInjectLatency() {
        return true;
    }

    /** The same statement on the JDBC databases; MariaDB's sequences (10.3+) keep their default cache of 1000. */
    String createSequenceSql(String sequence, int increment) {
        return "CREATE SEQUENCE IF NOT EXISTS " + sequence + " START WITH 1 INCREMENT BY " + increment;
    }

    abstract String nextValueSql(String sequence);

    static Database fromOption(String option) {
        for (Database database : values()) {
            if (database.option.equals(option)) {
                return database;
            }
        }
        throw new IllegalArgumentException("--store=" + option + ": expected one of h2, postgres, mariadb,"
                + " spanner-emulator");
    }
}
