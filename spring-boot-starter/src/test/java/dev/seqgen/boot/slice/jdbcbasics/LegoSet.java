package dev.seqgen.boot.slice.jdbcbasics;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * spring-data-examples' jdbc/basics aggregate, its {@code int} id from seqgen instead of an identity column.
 * {@code @Table} only because this module has Spring Data JPA on its class path too, which puts the repositories in
 * Spring Data's strict mode.
 */
@Table
public class LegoSet {

    @Id
    @SeqgenValue
    private int id;

    private String name;

    private Manual manual;

    public LegoSet() {
    }

    public LegoSet(String name) {
        this.name = name;
    }

    public int getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public Manual getManual() {
        return manual;
    }

    public void setManual(Manual manual) {
        this.manual = manual;
    }
}
