package dev.seqgen.boot.data.jdbc;

import dev.seqgen.Sequence;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Fills the {@link dev.seqgen.SeqgenValue} properties of a new aggregate root before Spring Data JDBC converts it
 * into its inserts: the id when it has none, and every other annotated property.
 *
 * <pre>
 * Design: why BeforeConvertCallback, not BeforeSaveCallback
 *
 * Spring Data Relational (3.5 to 4.1) decides whether an insert supplies the id (IdValueSource) when it converts the
 * aggregate into its actions, that is after BeforeConvertCallback and before BeforeSaveCallback. An id set in a
 * BeforeSaveCallback is therefore too late: the insert still expects a database-generated key. Spring Data's own
 * IdGeneratingEntityCallback for @Sequence can be a BeforeSaveCallback only because IdValueSource treats any id with
 * @Sequence as provided. Whether the aggregate is new is decided even earlier (save and saveAll ask before any
 * callback), so it is asked here before the id is set, with the same rule (PersistentEntity.isNew).
 *
 * Values come from the shared Sequence (no round trip with a block in hand) or, for SYNC, from the caller's
 * transaction (TransactionValues). The callback runs once per aggregate, also within saveAll.
 * </pre>
 */
final class SeqgenAggregateCallback implements BeforeConvertCallback<Object> {

    private final RelationalMappingContext mappingContext;
    private final AggregateSequences sequences;
    private final TransactionValues transactionValues;

    SeqgenAggregateCallback(RelationalMappingContext mappingContext, AggregateSequences sequences,
            TransactionValues transactionValues) {
        this.mappingContext = mappingContext;
        this.sequences = sequences;
        this.transactionValues = transactionValues;
    }

    /** Resolves and checks every persistent entity known now; the start-up check. */
    void checkAll() {
        sequences.checkAll();
    }

    @Override
    public Object onBeforeConvert(Object aggregate) {
        List<ValueProperty> properties = sequences.properties(aggregate.getClass());
        if (properties.isEmpty()) {
            return aggregate;
        }
        RelationalPersistentEntity<?> entity = mappingContext.getRequiredPersistentEntity(aggregate.getClass());
        if (!entity.hasIdProperty() || !entity.isNew(aggregate)) {
            return aggregate;
        }
        PersistentPropertyAccessor<Object> accessor = entity.getPropertyAccessor(aggregate);
        for (ValueProperty property : properties) {
            if (property.id() && hasValue(accessor.getProperty(property.property()))) {
                continue; // an id the application assigned (an aggregate new by its version or Persistable)
            }
            accessor.setProperty(property.property(), property.box(next(property)));
        }
        return accessor.getBean();
    }

    private long next(ValueProperty property) {
        Sequence sequence = sequences.sequence(property);
        return property.sync() ? transactionValues.next(sequence, property) : sequence.next();
    }

    private static boolean hasValue(@Nullable Object value) {
        return value != null && ((Number) value).longValue() != 0;
    }
}
