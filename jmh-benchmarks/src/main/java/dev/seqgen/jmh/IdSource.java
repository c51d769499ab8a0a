package dev.seqgen.jmh;

/**
 * What the benchmarks ask of every competitor, as Caffeine's benchmarks ask a {@code BasicCache}: the next
 * id, from one instance shared by every benchmark thread. Implementations are made by {@link IdSourceType}.
 */
public interface IdSource extends AutoCloseable {

    /**
     * Returns the next id.
     *
     * @return an id no other call of this source returned
     */
    long next();

    /**
     * Returns what the source did so far, for the benchmark log: seqgen's reservations and how often a caller
     * had to wait for one. Empty by default.
     *
     * @return a short description, or an empty string
     */
    default String activity() {
        return "";
    }

    /** Releases what the source holds (a registry and its refill threads); nothing by default. */
    @Override
    default void close() {
    }
}
