package dev.seqgen.jmh.spanner;

/** An entity of the comparison, whose key is generated one of three ways. */
interface Keyed {

    /** @return the key, once generated */
    Long id();
}
