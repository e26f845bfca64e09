package com.acme.payments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Conventions 3a: each table has one owning feature, and only that feature's Stores name it in SQL.
 * Tables come from the Flyway migrations ({@code CREATE TABLE}); uses are found by scanning every
 * {@code static final String} SQL constant in src/main/java for the table after FROM, JOIN, UPDATE or
 * INTO. Another feature that must change a table calls the owner's method instead.
 */
class TableOwnershipTests {

    private static final Path MAIN = Path.of("src/main/java/com/acme/payments");
    private static final Pattern CREATE = Pattern.compile("(?i)CREATE TABLE\\s+(?:IF NOT EXISTS\\s+)?(\\w+)");
    private static final Pattern CONSTANT = Pattern.compile(
            "static final String (\\w+)\\s*=\\s*(\"\"\".*?\"\"\"|\"(?:[^\"\\\\]|\\\\.)*\")", Pattern.DOTALL);

    /**
     * Known exceptions, by {@code Class.CONSTANT → table}; each is a defect to remove, not a licence.
     * TO_FAILED's "no newer attempt" guard reads psp_attempt inside the orders UPDATE so the check and
     * the move are one statement; moving it behind AttemptStore needs a lock-order review (issue 15 item 2,
     * left open).
     */
    private static final Set<String> PENDING = Set.of("OrderStore.TO_FAILED -> psp_attempt");

    @Test
    @DisplayName("every table is named in SQL by the Stores of exactly one feature, and by nothing but Stores")
    void everyTableHasOneOwningFeature() throws IOException {
        Set<String> tables = tables();
        Map<String, Set<String>> owners = new TreeMap<>();
        Map<String, Set<String>> storesByTable = new TreeMap<>();
        List<String> offences = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String cls = file.getFileName().toString().replace(".java", "");
                String feature = MAIN.relativize(file.getParent()).toString().replace('/', '.');
                Matcher constant = CONSTANT.matcher(Files.readString(file));
                while (constant.find()) {
                    for (String table : tables) {
                        if (!Pattern.compile("(?i)\\b(FROM|JOIN|UPDATE|INTO)\\s+" + table + "\\b")
                                .matcher(constant.group(2)).find()) {
                            continue;
                        }
                        String use = cls + "." + constant.group(1) + " -> " + table;
                        if (!cls.endsWith("Store")) {
                            offences.add(use + " (not a Store)");
                        }
                        if (PENDING.contains(use)) {
                            continue;
                        }
                        owners.computeIfAbsent(table, t -> new TreeSet<>()).add(feature);
                        storesByTable.computeIfAbsent(table, t -> new TreeSet<>()).add(cls);
                    }
                }
            }
        }
        owners.forEach((table, features) -> {
            if (features.size() != 1) {
                offences.add(table + " is named by the Stores of " + features + ": " + storesByTable.get(table));
            }
        });
        System.out.println("table owners: " + storesByTable);
        assertThat(offences).isEmpty();
        assertThat(owners.keySet()).as("every migrated table has an owner").containsAll(tables);
    }

    private static Set<String> tables() throws IOException {
        Set<String> tables = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            for (Path file : files.toList()) {
                Matcher m = CREATE.matcher(Files.readString(file));
                while (m.find()) {
                    tables.add(m.group(1).toLowerCase());
                }
            }
        }
        assertThat(tables).contains("orders", "psp_attempt", "psp_refund_attempt", "outbox");
        return tables;
    }
}
