package dev.seqgen.jmh.table;

/**
 * What one mode achieved with one thread count. Latencies are of whole simulated application transactions,
 * value included, in milliseconds.
 *
 * @param mode the mode
 * @param threads the caller threads
 * @param values the transactions completed within the measured time
 * @param seconds the measured time
 * @param p50 the median latency
 * @param p90 the 90th percentile latency
 * @param p99 the 99th percentile latency
 * @param max the longest latency, which shows a starved caller
 * @param errors transactions that failed
 * @param firstError the first failure's message, or null
 * @param bound the rate the mode cannot beat, values per second
 * @param boundFormula how the bound was computed
 * @param retries reservations seqgen retried after a transient store error (serialization failure, deadlock),
 *     warm-up included
 * @param allValues the transactions completed, warm-up included: the denominator of the retries
 * @param rolledBack transactions rolled back on purpose within the measured time ({@code --rollback-every});
 *     neither in {@code values} nor in {@code errors}
 */
record CellResult(Mode mode, int threads, long values, double seconds, double p50, double p90, double p99, double max,
        long errors, String firstError, double bound, String boundFormula, long retries, long allValues,
        long rolledBack) {

    double valuesPerSecond() {
        return values / seconds;
    }

    /** Retries per 10,000 values, warm-up included. */
    double retriesPer10k() {
        return allValues == 0 ? 0 : retries * 10_000.0 / allValues;
    }

    /** The achieved share of the bound, 0 to 1 (a little above 1 is measurement noise in the bound). */
    double share() {
        return valuesPerSecond() / bound;
    }
}
