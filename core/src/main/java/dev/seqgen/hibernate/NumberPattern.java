package dev.seqgen.hibernate;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A {@link SeqgenNumber#format()} pattern: formats a counter with key parts, and reads one back for adoption. */
final class NumberPattern {

    /** A literal (part 0), a key part (by index) or the counter (NUMBER; width 0: as it is). */
    private record Segment(@Nullable String literal, int part, int width) {
    }

    private static final int NUMBER = -1;

    private final List<Segment> segments;

    private NumberPattern(List<Segment> segments) {
        this.segments = List.copyOf(segments);
    }

    /** Reads a pattern over key parts {@code parts}; throws {@link SeqgenMappingException} if it is invalid. */
    static NumberPattern of(String pattern, List<String> parts, String where) {
        List<Segment> segments = new ArrayList<>();
        int i = 0;
        while (i < pattern.length()) {
            int open = pattern.indexOf('{', i);
            int stray = pattern.indexOf('}', i);
            if (stray >= 0 && (open < 0 || stray < open)) {
                throw invalid(pattern, where, "a '}' without its '{'");
            }
            if (open != i) {
                segments.add(new Segment(pattern.substring(i, open < 0 ? pattern.length() : open), 0, 0));
            }
            if (open < 0) {
                break;
            }
            int close = pattern.indexOf('}', open);
            if (close < 0) {
                throw invalid(pattern, where, "a '{' without its '}'");
            }
            String name = pattern.substring(open + 1, close).trim();
            if (name.equals("number") || name.startsWith("number:")) {
                int width = 0;
                if (name.startsWith("number:")) {
                    try {
                        width = Integer.parseInt(name.substring("number:".length()).trim());
                    } catch (NumberFormatException e) {
                        width = -1;
                    }
                    if (width < 1 || width > 19) {
                        throw invalid(pattern, where, "{" + name + "}: the width is a number of digits from 1 to 19");
                    }
                }
                segments.add(new Segment(null, NUMBER, width));
            } else {
                int part = parts.indexOf(name);
                if (part < 0) {
                    throw invalid(pattern, where, "{" + name + "} is neither {number} nor a part of the series key ("
                            + (parts.isEmpty() ? "the numbers are one series" : String.join(", ", parts)) + ")");
                }
                segments.add(new Segment(null, part, 0));
            }
            i = close + 1;
        }
        long numbers = segments.stream().filter(segment -> segment.part() == NUMBER).count();
        if (numbers != 1) {
            throw invalid(pattern, where, numbers == 0 ? "no {number}" : "{number} more than once");
        }
        for (int s = 0; s + 1 < segments.size(); s++) {
            Segment next = segments.get(s + 1);
            if (segments.get(s).part() == NUMBER && (next.literal() == null
                    || Character.isDigit(next.literal().charAt(0)))) {
                throw invalid(pattern, where, "{number} is followed by " + (next.literal() == null
                        ? "a placeholder" : "a digit") + ", so a formatted number could not be read back");
            }
        }
        return new NumberPattern(segments);
    }

    private static SeqgenMappingException invalid(String pattern, String where, String problem) {
        return new SeqgenMappingException(where, "@SeqgenNumber(format = \"" + pattern + "\") is not a pattern: "
                + problem, "Write literal text with {number} (or {number:6} for 6 digits, zero-padded) once, and any"
                + " part of the series key by its seriesBy entry ({company}, {issueDate:year}) or {tenant}", null);
    }

    /** {@return the counter formatted with the entity's key parts (texts, in key order)} */
    String format(List<String> parts, long counter) {
        StringBuilder out = new StringBuilder();
        for (Segment segment : segments) {
            if (segment.part() == NUMBER) {
                String digits = Long.toString(counter);
                out.append("0".repeat(Math.max(0, segment.width() - digits.length()))).append(digits);
            } else {
                out.append(segment.literal() != null ? segment.literal() : parts.get(segment.part()));
            }
        }
        return out.toString();
    }

    /** {@return the counter read back from a column value, or -1 if it is not a number of this pattern and series} */
    long counterOf(@Nullable String formatted, List<String> parts) {
        if (formatted == null) {
            return -1;
        }
        int at = 0;
        long counter = -1;
        for (Segment segment : segments) {
            if (segment.part() == NUMBER) {
                int end = at;
                while (end < formatted.length() && Character.isDigit(formatted.charAt(end))) {
                    end++;
                }
                if (end == at || end - at > 18) {
                    return -1;
                }
                counter = Long.parseLong(formatted.substring(at, end));
                at = end;
            } else {
                String expected = segment.literal() != null ? segment.literal() : parts.get(segment.part());
                if (!formatted.startsWith(expected, at)) {
                    return -1;
                }
                at += expected.length();
            }
        }
        return at == formatted.length() ? counter : -1;
    }
}
