package dev.seqgen.boot.data.jdbc.events;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A kit's manual: its id is the kit's, copied by the application's listener, not a seqgen value. */
@Table
public class EventKitManual {

    @Id
    private Long id;

    private String text;

    public EventKitManual() {
    }

    public EventKitManual(String text) {
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
}
