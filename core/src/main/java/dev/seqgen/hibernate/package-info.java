/**
 * seqgen's Hibernate 7 generators: {@link dev.seqgen.hibernate.SeqgenGenerator} for ids,
 * {@link dev.seqgen.hibernate.SeqgenNumber} for business numbers; {@link dev.seqgen.hibernate.SeqgenHibernate}
 * lists the settings. Needs {@code hibernate-core} 7.
 */
@NullMarked
package dev.seqgen.hibernate;

import org.jspecify.annotations.NullMarked;
