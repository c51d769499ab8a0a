package dev.seqgen.jmh.bulk;

/**
 * The databases the bulk-insert benchmark runs on. Connection settings come from the environment
 * ({@code SEQGENTEST_POSTGRES_URL}/{@code _USER}/{@code _PASSWORD}, likewise {@code SEQGENTEST_MARIADB_*}),
 * as in seqgen's own tests, with the defaults below.
 */
public enum BulkDatabase {

    /** H2 in memory, in the benchmark's JVM: a database of its own per trial. */
    H2("h2", null, "sa", "") {
        @Override
        public String url(String suffix) {
            return "jdbc:h2:mem:bulk_" + suffix;
        }
    },

    POSTGRES("postgres", "jdbc:postgresql://localhost:5432/seqgen_test", "seqgen", "seqgen"),

    MARIADB("mariadb", "jdbc:mariadb://127.0.0.1:3306/seqgen_test", "seqgen", "seqgen");

    private final String option;
    private final String defaultUrl;
    private final String defaultUser;
    private final String defaultPassword;

    BulkDatabase(String option, String defaultUrl, String defaultUser, String defaultPassword) {
        this.option = option;
        this.defaultUrl = defaultUrl;
        this.defaultUser = defaultUser;
        this.defaultPassword = defaultPassword;
    }

    /**
     * Returns the JDBC URL.
     *
     * @param suffix what makes an in-process database the trial's own
     * @return the URL
     */
    public String url(String suffix) {
        return env("URL", defaultUrl);
    }

    /** @return the user */
    public String user() {
        return env("USER", defaultUser);
    }

    /** @return the password */
    public String password() {
        return env("PASSWORD", defaultPassword);
    }

    private String env(String key, String defaultValue) {
        String value = System.getenv("SEQGENTEST_" + name() + "_" + key);
        return value == null || value.isBlank() ? defaultValue : value;
    }

    /**
     * Returns the database a {@code -p database=...} value names.
     *
     * @param option {@code h2}, {@code postgres} or {@code mariadb}
     * @return the database
     */
    public static BulkDatabase fromOption(String option) {
        for (BulkDatabase database : values()) {
            if (database.option.equalsIgnoreCase(option)) {
                return database;
            }
        }
        throw new IllegalArgumentException("database=" + option + ": expected h2, postgres or mariadb");
    }
}
