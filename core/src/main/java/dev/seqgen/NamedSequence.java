package dev.seqgen;

/** A sequence whose name and settings are fixed: what every strategy and wrapper shares. */
abstract class NamedSequence implements Sequence {

    final String name;
    final SequenceSettings settings;

    NamedSequence(String name, SequenceSettings settings) {
        this.name = name;
        this.settings = settings;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Strategy strategy() {
        return settings.strategy();
    }

    @Override
    public final SequenceSettings settings() {
        return settings;
    }
}
