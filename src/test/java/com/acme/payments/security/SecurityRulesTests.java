package com.acme.payments.security;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The code-level security rules that a scan can keep true. */
class SecurityRulesTests {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.acme.payments");

    @Test
    @DisplayName("no class compares byte arrays with Arrays.equals: secrets and MACs go through MessageDigest.isEqual")
    void noArraysEqualsOnBytes() {
        noClasses().that().resideInAPackage("com.acme.payments..")
                .should().callMethod(Arrays.class, "equals", byte[].class, byte[].class)
                .because("a constant-time comparison is MessageDigest.isEqual; Arrays.equals exits at the first difference")
                .check(MAIN);
    }

    /**
     * Every {@code JdbcClient.sql(…)} argument in src/main/java is a constant: an UPPER_SNAKE field (checked
     * to be a {@code static final String} initialised by a text block or literals only) or a literal text
     * block / string literal with no {@code +}, {@code formatted(} or {@code format(} before the closing
     * parenthesis. Values go in as {@code :named} parameters only. Honest limits: a constant built from
     * other constants is accepted, and a call spread over unusual syntax might be missed; any {@code .sql(}
     * the scan cannot classify fails the test.
     */
    @Test
    @DisplayName("SQL is only ever a constant: no .sql(...) argument is built by concatenation or formatting")
    void sqlIsConstant() throws IOException {
        Pattern call = Pattern.compile("\\.sql\\(\\s*");
        List<String> offences = new ArrayList<>();
        int calls = 0;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/com/acme/payments"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher m = call.matcher(source);
                while (m.find()) {
                    calls++;
                    String rest = source.substring(m.end());
                    String where = file + ":" + (source.substring(0, m.start()).split("\n", -1).length);
                    Matcher constant = Pattern.compile("^([A-Z][A-Z0-9_]*)\\s*\\)").matcher(rest);
                    if (constant.find()) {
                        String name = constant.group(1);
                        if (!definesConstantSql(source, name)) {
                            offences.add(where + ": " + name + " is not a static final String of literals");
                        }
                    } else if (rest.startsWith("\"\"\"")) {
                        int end = rest.indexOf("\"\"\"", 3);
                        String after = rest.substring(end + 3).stripLeading();
                        if (end < 0 || !after.startsWith(")")) {
                            offences.add(where + ": a text block followed by something else than ')'");
                        }
                    } else if (file.endsWith(Path.of("sweep/SweptStore.java"))
                            && rest.matches("(?s)^(ageInFlight|claimUnknown|holdLease|releaseLeases)\\s*\\).*")) {
                        // SweptStore runs its subclasses' statements: each one's super(...) is checked below
                    } else if (!rest.matches("(?s)^\"[^\"\\\\]*\"\\s*\\).*")) {
                        offences.add(where + ": " + rest.substring(0, Math.min(60, rest.length())).replace('\n', ' '));
                    }
                }
            }
        }
        sweptStoresPassConstants(offences);
        assertThat(calls).as(".sql( calls found").isGreaterThan(50);
        assertThat(offences).as("SQL built at run time").isEmpty();
    }

    /** Every Store that extends SweptStore hands it its own constant statements, never a built string. */
    private static void sweptStoresPassConstants(List<String> offences) throws IOException {
        // the row mapper is any constant (AttemptStore's claim maps its rows with the order's part)
        Pattern superCall = Pattern.compile("super\\(\\s*jdbc\\s*,\\s*[A-Z][A-Z0-9_]*((?:\\s*,\\s*[A-Z][A-Z0-9_]*){4})\\s*\\)");
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/com/acme/payments"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                if (!source.contains("extends SweptStore<")) {
                    continue;
                }
                Matcher m = superCall.matcher(source);
                if (!m.find()) {
                    offences.add(file + ": extends SweptStore without super(jdbc, MAPPER, CONSTANT, CONSTANT, CONSTANT, CONSTANT)");
                    continue;
                }
                for (String statement : m.group(1).replaceFirst("^\\s*,", "").split(",")) {
                    if (!definesConstantSql(source, statement.strip())) {
                        offences.add(file + ": " + statement.strip() + " handed to SweptStore is not a static final String of literals");
                    }
                }
            }
        }
    }

    /**
     * {@code static final String NAME = …;} whose pieces, joined by {@code +}, are text blocks, string
     * literals or other such constants of the same file (a compile-time constant: nothing comes from a caller).
     */
    private static boolean definesConstantSql(String source, String name) {
        return definesConstantSql(source, name, 0);
    }

    private static boolean definesConstantSql(String source, String name, int depth) {
        Matcher declaration = Pattern.compile("static\\s+final\\s+String\\s+" + name + "\\s*=\\s*").matcher(source);
        if (depth > 5 || !declaration.find()) {
            return false;
        }
        String init = source.substring(declaration.end());
        while (true) {
            if (init.startsWith("\"\"\"")) {
                int end = init.indexOf("\"\"\"", 3);
                if (end < 0) {
                    return false;
                }
                init = init.substring(end + 3).stripLeading();
            } else if (init.startsWith("\"")) {
                Matcher literal = Pattern.compile("^\"[^\"\\\\]*\"").matcher(init);
                if (!literal.find()) {
                    return false;
                }
                init = init.substring(literal.end()).stripLeading();
            } else {
                Matcher other = Pattern.compile("^([A-Z][A-Z0-9_]*)").matcher(init);
                if (!other.find() || !definesConstantSql(source, other.group(1), depth + 1)) {
                    return false;
                }
                init = init.substring(other.end()).stripLeading();
            }
            if (init.startsWith(";")) {
                return true;
            }
            if (!init.startsWith("+")) {
                return false;
            }
            init = init.substring(1).stripLeading();
        }
    }
}
