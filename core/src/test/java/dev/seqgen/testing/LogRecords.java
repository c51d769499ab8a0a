package dev.seqgen.testing;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What seqgen logged during a test. seqgen logs through {@link System.Logger}, which without a bridge goes to
 * {@code java.util.logging}; this extension listens on the {@code dev.seqgen} logger at every level for the
 * duration of each test: {@code @RegisterExtension final LogRecords logs = new LogRecords();}.
 */
public final class LogRecords implements BeforeEachCallback, AfterEachCallback {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    /** Held so that the level set below stays (JUL keeps loggers weakly). */
    private final Logger seqgen = Logger.getLogger("dev.seqgen");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level previousLevel;

    @Override
    public void beforeEach(ExtensionContext context) {
        records.clear();
        previousLevel = seqgen.getLevel();
        seqgen.setLevel(Level.ALL);
        handler.setLevel(Level.ALL);
        seqgen.addHandler(handler);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        seqgen.removeHandler(handler);
        seqgen.setLevel(previousLevel);
    }

    /**
     * The names of the loggers that logged a message at exactly this level, its {@code {0}} parameters filled in,
     * that matches the pattern, in the order logged.
     */
    public List<String> loggers(Level level, java.util.regex.Pattern message) {
        return records.stream().filter(r -> r.getLevel().equals(level) && message.matcher(message(r)).matches())
                .map(LogRecord::getLoggerName).toList();
    }

    /** The messages logged at exactly this level, their {@code {0}} parameters filled in. */
    public List<String> messages(Level level) {
        return records.stream().filter(r -> r.getLevel().equals(level)).map(LogRecords::message).toList();
    }

    /**
     * The lines logged at exactly this level as {@code logger: message}, the logger's name first, so that a test can
     * hold both the line and the logger an operator configures for it.
     */
    public List<String> linesWithLogger(Level level) {
        return records.stream().filter(r -> r.getLevel().equals(level))
                .map(r -> r.getLoggerName() + ": " + message(r)).toList();
    }

    private static String message(LogRecord record) {
        return record.getParameters() == null || record.getParameters().length == 0 ? record.getMessage()
                : MessageFormat.format(record.getMessage(), record.getParameters());
    }
}
