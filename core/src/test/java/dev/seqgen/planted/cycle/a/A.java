package dev.seqgen.planted.cycle.a;

import dev.seqgen.planted.cycle.b.B;

/** Planted: one half of a package cycle, {@code a} to {@code b}. */
public class A {

    /** The dependency on {@code b}. */
    public B b;
}
