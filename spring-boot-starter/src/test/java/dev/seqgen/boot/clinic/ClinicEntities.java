package dev.seqgen.boot.clinic;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Table;

/**
 * Seven entities of a clinic whose tables were all made for IDENTITY ({@code GENERATED ALWAYS AS IDENTITY}), adopting
 * seqgen on their common base class: the application's first start must name all seven columns.
 */
public final class ClinicEntities {

    /** The tables, in the order the test creates them. */
    public static final String[] TABLES = {"owners", "pets", "vets", "visits", "specialties", "pet_types",
        "vet_specialties"};

    private ClinicEntities() {
    }

    /** The id every entity of the clinic has. */
    @MappedSuperclass
    public abstract static class BaseEntity {

        @Id
        @GeneratedValue
        @SeqgenGenerator
        private Long id;

        public Long getId() {
            return id;
        }
    }

    /** An owner. */
    @Entity
    @Table(name = "owners")
    public static class Owner extends BaseEntity {
    }

    /** A pet. */
    @Entity
    @Table(name = "pets")
    public static class Pet extends BaseEntity {
    }

    /** A vet. */
    @Entity
    @Table(name = "vets")
    public static class Vet extends BaseEntity {
    }

    /** A visit. */
    @Entity
    @Table(name = "visits")
    public static class Visit extends BaseEntity {
    }

    /** A specialty. */
    @Entity
    @Table(name = "specialties")
    public static class Specialty extends BaseEntity {
    }

    /** A type of pet. */
    @Entity
    @Table(name = "pet_types")
    public static class PetType extends BaseEntity {
    }

    /** A vet's specialty. */
    @Entity
    @Table(name = "vet_specialties")
    public static class VetSpecialty extends BaseEntity {
    }
}
