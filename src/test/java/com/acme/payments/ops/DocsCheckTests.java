package com.acme.payments.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The prose checker ({@code ops/check-doc-links.py}) in the build: every relative link of README and docs
 * resolves, and neither the prose nor a main code comment carries an issue number, a commit hash or a
 * machine path. Its own self-test runs first, so a checker that stopped finding anything fails here too.
 */
class DocsCheckTests {

    private static final Path CHECKER = Path.of("ops/check-doc-links.py");

    @Test
    void theCheckersSelfTestFindsWhatItMust() throws Exception {
        assertThat(run("--self-test")).isEqualTo(0);
    }

    @Test
    void theProseAndTheMainCodeCommentsPassTheChecker() throws Exception {
        assertThat(run(".")).isEqualTo(0);
    }

    private static int run(String argument) throws IOException, InterruptedException {
        assumeTrue(python3(), "no python3 on this machine: the prose checker cannot run");
        Path log = Files.createTempFile("check-doc-links", ".log");
        Process process = new ProcessBuilder(List.of("python3", CHECKER.toString(), argument))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the checker ends").isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println(output);
        assertThat(process.exitValue()).as(output).isEqualTo(0);
        return process.exitValue();
    }

    private static boolean python3() {
        try {
            return new ProcessBuilder("python3", "--version").start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
