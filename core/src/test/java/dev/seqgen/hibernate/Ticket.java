package dev.seqgen.hibernate;

/** The test entities that only carry a generated id and the worker thread that persisted them. */
interface Ticket {

    /** The generated id, as a long whatever the id type. */
    long id();
}
