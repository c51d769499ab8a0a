package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The native-image reflection hints name classes that exist, with the public no-argument constructors
 * Hibernate and ServiceLoader call (Spring registers generator hints only for field- or method-level
 * annotations, so class- and package-level {@code @SeqgenGenerator} rely on these).
 */
class NativeImageHintsTest {

    private static final String HINTS = "META-INF/native-image/dev.seqgen/seqgen-core/reflect-config.json";

    @Test
    void everyClassInTheHintsExistsWithTheConstructorsItNames() throws Exception {
        String json;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(HINTS)) {
            assertThat(in).as(HINTS).isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        Matcher entry = Pattern.compile("\"name\"\\s*:\\s*\"([\\w.$]+)\"([^\\]}]*\\[[^\\]]*\\][^}]*}|)").matcher(json);
        int classes = 0;
        int constructors = 0;
        while (entry.find()) {
            String name = entry.group(1);
            Class<?> type = Class.forName(name, false, getClass().getClassLoader());
            classes++;
            if (json.substring(entry.end(1), Math.min(json.length(), entry.end(1) + 120)).contains("\"<init>\"")) {
                assertThat(type.getConstructor().getParameterCount()).as(name + "()").isZero();
                constructors++;
            }
        }
        assertThat(classes).isEqualTo(3);
        assertThat(constructors).isEqualTo(2);
        assertThat(json).contains("dev.seqgen.hibernate.SeqgenIdGenerator");
    }
}
