package com.acme.payments.common.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each problem {@code type} is declared once, in {@link ProblemType}, and only there. */
class ProblemTypeTests {

    private static final Path MAIN = Path.of("src/main/java/com/acme/payments");

    @Test
    @DisplayName("every slug is declared once, with a title and a meaning")
    void slugsAreUniqueAndExplained() {
        List<String> slugs = Arrays.stream(ProblemType.values()).map(ProblemType::slug).toList();
        assertThat(slugs).doesNotHaveDuplicates();
        for (ProblemType type : ProblemType.values()) {
            assertThat(type.slug()).as("%s slug", type).matches("[a-z]+(-[a-z]+)*");
            assertThat(type.title()).as("%s title", type).isNotBlank();
            assertThat(type.meaning()).as("%s meaning", type).isNotBlank();
            assertThat(type.uri().toString()).isEqualTo(ProblemType.BASE + type.slug());
        }
    }

    @Test
    @DisplayName("no class outside ProblemType spells a domain slug as a string literal")
    void noSlugLiteralOutsideTheDeclaration() throws IOException {
        List<String> offences = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (file.getFileName().toString().equals("ProblemType.java")) {
                    continue;
                }
                String source = Files.readString(file);
                for (ProblemType type : ProblemType.values()) {
                    if (source.contains("\"" + type.slug() + "\"")) {
                        offences.add(MAIN.relativize(file) + " spells \"" + type.slug() + "\"");
                    }
                }
            }
        }
        assertThat(offences).isEmpty();
    }

    @Test
    @DisplayName("Retry-After only on the types declared with it")
    void retryAfterOnlyWhereDeclared() {
        assertThatThrownBy(() -> new Probe(ProblemType.NOT_FOUND).retry())
                .isInstanceOf(IllegalStateException.class);
        assertThat(new Probe(ProblemType.SERVICE_BUSY).retry().retryAfterOrNull()).isEqualTo(Duration.ofSeconds(2));
    }

    private static final class Probe extends ApiProblem {
        Probe(ProblemType type) {
            super(type, "probe");
        }

        Probe retry() {
            retryAfter(Duration.ofSeconds(2));
            return this;
        }
    }
}
