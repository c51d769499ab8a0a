/**
 * seqgen as a Hibernate 7 identifier generator: annotate an id (or a package, or an entity class) with
 * {@link dev.seqgen.hibernate.SeqgenGenerator} and its values come from a seqgen sequence of the strategy of
 * your choice. {@link dev.seqgen.hibernate.SeqgenHibernate} lists the Hibernate settings that say where the
 * {@link dev.seqgen.SequenceRegistry} comes from. Needs {@code hibernate-core} 7 on the classpath.
 */
@NullMarked
package dev.seqgen.hibernate;

import org.jspecify.annotations.NullMarked;
