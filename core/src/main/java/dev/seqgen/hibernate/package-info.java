/**
 * seqgen's generators for {@code hibernate-core} 7: {@link SeqgenGenerator} for ids, {@link SeqgenNumber} for
 * business numbers; {@link SeqgenHibernate} lists the settings.
 */
@NullMarked
package dev.seqgen.hibernate;

import org.jspecify.annotations.NullMarked;
