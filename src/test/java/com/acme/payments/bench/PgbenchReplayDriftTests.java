package com.acme.payments.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The pgbench replay ({@code src/test/pgbench}) sends the hot paths' statements as the driver sends them, with
 * pgbench variables where the Stores bind parameters. It is a copy, so it would drift when a Store's SQL
 * changes and the PostgreSQL figures would then price statements the service no longer sends. This test
 * holds every statement of the replay scripts against the SQL of the main code (its text blocks, and every
 * {@code static final String} of its classes, so composed constants count too): each must have the same
 * shape as one of them — the same keywords, names and punctuation, values and parameters aside.
 */
class PgbenchReplayDriftTests {

    private static final Path REPLAY = Path.of("src/test/pgbench");
    private static final Path MAIN = Path.of("src/main/java");
    /** The scripts that replay a path; seeds, plans, floors and variants are not the service's statements. */
    private static final List<String> REPLAYS = List.of("checkout.sql", "checkout-async-answer.sql", "webhook.sql",
            "webhook-async-receipt.sql", "billing.sql", "sweep-attempt.sql", "sweep-claim.sql");
    private static final Pattern TOKEN = Pattern.compile(
            "'(?:[^']|'')*'|::|:[A-Za-z_][A-Za-z_0-9]*|%s|[0-9]+(?:\\.[0-9]+)?|[A-Za-z_][A-Za-z_0-9]*|\\S");
    private static final Set<String> VALUES = Set.of("null", "true", "false");
    private static final Pattern TEXT_BLOCK = Pattern.compile("\"\"\"\\s*\\n(.*?)\"\"\"", Pattern.DOTALL);

    @Test
    void everyReplayedStatementIsShapedLikeOneTheServiceSends() throws Exception {
        Set<String> shapes = mainSqlShapes();
        List<String> drifted = new ArrayList<>();
        int checked = 0;
        for (String script : REPLAYS) {
            for (String statement : statements(Files.readString(REPLAY.resolve(script)))) {
                checked++;
                if (!shapes.contains(shape(statement))) {
                    drifted.add(script + ":\n" + statement);
                }
            }
        }
        assertThat(checked).as("replayed statements checked").isGreaterThanOrEqualTo(30);
        assertThat(drifted).as("replayed statements no Store sends any more (update src/test/pgbench)").isEmpty();
    }

    @Test
    void aChangedStatementIsSeen() {
        String sent = "UPDATE orders SET status = 'PAID', updated_at = now() WHERE id = :id AND status = 'PROCESSING'";
        assertThat(shape("UPDATE orders SET status = 'PAID', updated_at = now()\n WHERE id = :oid AND status = 'X'"))
                .isEqualTo(shape(sent));
        assertThat(shape("UPDATE orders SET status = 'PAID' WHERE id = :oid AND status = 'PROCESSING'"))
                .isNotEqualTo(shape(sent));
    }

    /** The statements of a pgbench script: comments, meta-commands and transaction control left out. */
    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--") || trimmed.startsWith("\\")) {
                continue;
            }
            int gset = trimmed.indexOf("\\gset");
            boolean ends = trimmed.endsWith(";") || gset >= 0;
            String text = gset >= 0 ? trimmed.substring(0, gset) : trimmed;
            current.append(text).append('\n');
            if (ends) {
                String statement = current.toString().strip().replaceAll(";$", "").strip();
                current.setLength(0);
                String upper = statement.toUpperCase();
                if (!upper.equals("BEGIN") && !upper.equals("COMMIT") && !upper.startsWith("SET LOCAL ")) {
                    out.add(statement);
                }
            }
        }
        return out;
    }

    /** Keywords, names and punctuation in order; every value and parameter one {@code ?}, an IN list one too. */
    static String shape(String sql) {
        StringBuilder out = new StringBuilder();
        Matcher m = TOKEN.matcher(sql);
        while (m.find()) {
            String token = m.group();
            String lower = token.toLowerCase();
            boolean value = token.startsWith("'") || (token.startsWith(":") && !token.equals("::"))
                    || Character.isDigit(token.charAt(0)) || VALUES.contains(lower);
            out.append(value ? "?" : lower).append(' ');
        }
        // a list bound to one parameter (IN (:from)) reaches the server as IN ($1, $2, …)
        return out.toString().replace("; ", "").replaceAll("in \\( \\?( , \\?)+ \\)", "in ( ? )").strip();
    }

    private static Set<String> mainSqlShapes() throws IOException, ClassNotFoundException {
        Set<String> shapes = new HashSet<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher block = TEXT_BLOCK.matcher(Files.readString(file));
                while (block.find()) {
                    shapes.add(shape(block.group(1)));
                }
                String name = MAIN.relativize(file).toString().replace('/', '.').replaceAll("\\.java$", "");
                for (Field field : Class.forName(name, false, PgbenchReplayDriftTests.class.getClassLoader())
                        .getDeclaredFields()) {
                    if (field.getType() == String.class && Modifier.isStatic(field.getModifiers())
                            && Modifier.isFinal(field.getModifiers())) {
                        try {
                            field.setAccessible(true);
                            Object value = field.get(null);
                            if (value != null) {
                                shapes.add(shape((String) value));
                            }
                        } catch (ReflectiveOperationException | RuntimeException e) {
                            // a field this test cannot read names no SQL it needs
                        }
                    }
                }
            }
        }
        return shapes;
    }
}
