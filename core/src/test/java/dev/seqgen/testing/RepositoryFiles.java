package dev.seqgen.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files of the repository (its Markdown docs) that tests check the code against, found from whichever module
 * directory the tests run in: core's in the main build, a compatibility line's three levels further down.
 */
public final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /**
     * The file at the given path relative to the repository's root: the nearest directory above the working
     * directory that has it.
     *
     * @param relative such as {@code CONTRIBUTING.md} or {@code docs/hibernate.md}
     * @throws AssertionError if no directory above the working directory has it
     */
    public static Path find(String relative) {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(relative);
            if (Files.isRegularFile(file)) {
                return file;
            }
        }
        throw new AssertionError(relative + " not found above " + start);
    }
}
