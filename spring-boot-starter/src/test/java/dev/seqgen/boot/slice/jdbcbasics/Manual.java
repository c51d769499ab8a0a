package dev.seqgen.boot.slice.jdbcbasics;

import org.springframework.data.annotation.Id;

/** A lego set's manual, whose id the application copies from its set's, as jdbc/basics does. */
public class Manual {

    @Id
    private Long id;

    private String text;

    public Manual() {
    }

    public Manual(String text) {
        this.text = text;
    }

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getText() {
        return text;
    }

    public void setText(String text) {
        this.text = text;
    }
}
