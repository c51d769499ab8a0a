package dev.seqgen.planted.cycle.b;

import dev.seqgen.planted.cycle.a.A;

/** Planted: the other half of a package cycle, {@code b} back to {@code a}. */
public class B {

    /** The dependency back on {@code a}. */
    public A a;
}
