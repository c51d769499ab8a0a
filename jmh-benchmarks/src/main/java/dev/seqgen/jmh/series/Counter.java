package dev.seqgen.jmh.series;

import java.util.function.Supplier;

/** Where the benchmark's gapless numbers are counted: a series per tenant, or one row shared by every tenant. */
public enum Counter {

    /** {@code @SeqgenNumber(strategy = SYNC)} on a {@code @TenantId} entity: a row per tenant. */
    PER_TENANT(TenantNumberedInvoice.class, TenantNumberedInvoice::new, TenantNumberedInvoice.SEQUENCE, true),

    /** The same with {@code perTenant = false}: one row, every tenant's transactions queue on its lock. */
    SHARED(SharedNumberedInvoice.class, SharedNumberedInvoice::new, SharedNumberedInvoice.SEQUENCE, false);

    final Class<? extends Invoice> entityClass;
    final Supplier<? extends Invoice> constructor;
    final String sequence;
    final boolean perTenant;

    Counter(Class<? extends Invoice> entityClass, Supplier<? extends Invoice> constructor, String sequence,
            boolean perTenant) {
        this.entityClass = entityClass;
        this.constructor = constructor;
        this.sequence = sequence;
        this.perTenant = perTenant;
    }
}
