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
 * Conventions 3a: each table has one owning feature, and one Store of it writes the table (one writer per
 * table, so a table's writes, their fences and row counts are read in one class). Tables come from the
 * Flyway migrations ({@code CREATE TABLE}); uses are found by scanning every
 * {@code static final String} SQL constant in src/main/java: after UPDATE, INSERT INTO or DELETE FROM the
 * table is written, after FROM or JOIN it is read. Another Store or feature that must change a table calls
 * the owner's method instead. A read by a Store that does not own the table is allowed only where
 * {@link #FOREIGN_READS} names the constant and why, so a new one is a decision, not an accident.
 */
class TableOwnershipTests {

    private static final Path MAIN = Path.of("src/main/java/com/acme/payments");
    private static final Pattern CREATE = Pattern.compile("(?i)CREATE TABLE\\s+(?:IF NOT EXISTS\\s+)?(\\w+)");
    private static final Pattern CONSTANT = Pattern.compile(
            "static final String (\\w+)\\s*=\\s*(\"\"\".*?\"\"\"|\"(?:[^\"\\\\]|\\\\.)*\")", Pattern.DOTALL);

    /** {@code Class.CONSTANT -> table}: reads of a table another Store writes, each on purpose. */
    private static final Set<String> FOREIGN_READS = Set.of(
            // the outbox's readers beside its one writer (OutboxStore): the operators' listing and look-ups (one
            // row, an order's open rows), and the gauges' figures; neither writes a row
            "OutboxAdminStore.LIST -> outbox", "OutboxAdminStore.FIND -> outbox",
            "OutboxAdminStore.OPEN_FOR_AGGREGATE -> outbox", "OutboxStatsStore.STATS -> outbox",
            "OutboxStatsStore.OLDEST_PENDING -> outbox",
            // the order list's pages and its cursor's position, beside the orders' one writer (OrderStore)
            "OrderListStore.POSITION -> orders", "OrderListStore.PAGE -> orders",
            "OrderListStore.PAGE_OF_STATUS -> orders",
            // the newest-attempt guard: an order moves only for its newest, not abandoned attempt. It stays
            // in the UPDATE: a check through AttemptStore first would be a separate statement, and under READ
            // COMMITTED a newer attempt (or an abandon) committed between the two would let an old result move
            // the order; inside the one conditional UPDATE the check and the move are a single step. One
            // fragment, composed into every status move (TO_PAID, TO_AUTHORIZED, TO_FAILED, TO_PROCESSING)
            "OrderStore.NEWEST_ATTEMPT_WINS -> psp_attempt",
            // the operator's listings show the order_ref beside each open row
            "AttemptStore.UNRESOLVED -> orders", "OperationStore.UNRESOLVED -> orders",
            "RefundStore.UNRESOLVED -> orders", "DuplicateChargeStore.WITH_REFUND -> orders",
            // the sweep's claim returns each attempt with its order's part of the create, which the reconcile
            // rebuilds (one read per batch in the claim, not one per attempt)
            "AttemptStore.CLAIM_UNKNOWN -> orders",
            // the same for the abandoned-attempt watch's claim (was one order read per watched attempt)
            "AttemptStore.CLAIM_ABANDONED -> orders",
            // a refund's reconcile rebuilds its create: the order's reference and the payment it was sent against
            "RefundStore.PARENT -> orders", "RefundStore.PARENT -> duplicate_charge",
            "RefundStore.CHARGE_OF_PAYMENT -> duplicate_charge",
            // the same, returned by the refund sweep's claim for every claimed row (one read per batch)
            "RefundStore.CLAIM_UNKNOWN -> orders", "RefundStore.CLAIM_UNKNOWN -> duplicate_charge",
            // and by the refund straggler poll's claim (was one read per abandoned refund asked about)
            "RefundStore.CLAIM_NOT_FINAL -> orders", "RefundStore.CLAIM_NOT_FINAL -> duplicate_charge",
            "RefundStore.CLAIMED_WITH_PARENT -> orders", "RefundStore.CLAIMED_WITH_PARENT -> duplicate_charge",
            "DuplicateChargeStore.NEVER_REFUNDED -> orders",
            // a second charge is shown with its refund, and the auto-refund picks charges without one: a
            // read of the refund feature's rows beside the charge, in the same statement
            "DuplicateChargeStore.WITH_REFUND -> psp_refund_attempt",
            "DuplicateChargeStore.NEVER_REFUNDED -> psp_refund_attempt",
            // the SecondChargeUnrefunded gauge: charges no refund of which is DONE, the listing's own rule
            "DuplicateChargeStore.UNREFUNDED_STATS -> psp_refund_attempt",
            // the ledger export: every money movement (payments, second charges, refunds and their failures) in
            // one ordered read; the ledger owns no table and writes nothing
            "LedgerStore.MOVEMENTS -> orders", "LedgerStore.MOVEMENTS -> psp_attempt",
            "LedgerStore.MOVEMENTS -> psp_refund_attempt", "LedgerStore.MOVEMENTS -> duplicate_charge",
            // the books' reconciliation holds our attempts, second charges and refunds against the PSP's
            // listing: it only reads them (a window, or the ids the listing named), and owns its own runs
            "BooksLedgerStore.PAYMENT_COLUMNS -> psp_attempt", "BooksLedgerStore.PAYMENT_COLUMNS -> orders",
            "BooksLedgerStore.PAYMENT_COLUMNS -> duplicate_charge",
            "BooksLedgerStore.CHARGES_IN_WINDOW -> duplicate_charge", "BooksLedgerStore.CHARGES_IN_WINDOW -> orders",
            "BooksLedgerStore.CHARGES_IN_WINDOW -> psp_attempt",
            "BooksLedgerStore.CHARGES_BY_ID -> duplicate_charge", "BooksLedgerStore.CHARGES_BY_ID -> orders",
            "BooksLedgerStore.CHARGES_BY_ID -> psp_attempt",
            "BooksLedgerStore.REFUND_COLUMNS -> psp_refund_attempt", "BooksLedgerStore.REFUND_COLUMNS -> orders",
            "BooksLedgerStore.ORDERS_OF_PAYMENTS -> psp_attempt", "BooksLedgerStore.ORDERS_OF_PAYMENTS -> orders",
            "BooksLedgerStore.ORDERS_OF_PAYMENTS -> duplicate_charge");

    @Test
    @DisplayName("every table is written by exactly one Store (of one feature); reads by other Stores are named")
    void everyTableHasOneWritingStore() throws IOException {
        Set<String> tables = tables();
        Map<String, Set<String>> storesByTable = new TreeMap<>();
        List<String[]> reads = new ArrayList<>();
        List<String> offences = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String cls = file.getFileName().toString().replace(".java", "");
                Matcher constant = CONSTANT.matcher(Files.readString(file));
                while (constant.find()) {
                    String sql = constant.group(2);
                    for (String table : tables) {
                        boolean written = Pattern.compile("(?i)\\b(UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+" + table + "\\b")
                                .matcher(sql).find();
                        boolean read = Pattern.compile("(?i)(?<!DELETE\\s)\\b(FROM|JOIN)\\s+" + table + "\\b")
                                .matcher(sql).find();
                        if (!written && !read) {
                            continue;
                        }
                        String use = cls + "." + constant.group(1) + " -> " + table;
                        if (!cls.endsWith("Store")) {
                            offences.add(use + " (SQL outside a Store)");
                        }
                        if (written) {
                            storesByTable.computeIfAbsent(table, t -> new TreeSet<>()).add(cls);
                        } else {
                            reads.add(new String[] { use, cls, table });
                        }
                    }
                }
            }
        }
        storesByTable.forEach((table, stores) -> {
            if (stores.size() != 1) {
                offences.add(table + " is written by " + stores.size() + " Stores: " + stores);
            }
        });
        for (String[] read : reads) {
            Set<String> owner = storesByTable.getOrDefault(read[2], Set.of());
            if (!owner.contains(read[1]) && !FOREIGN_READS.contains(read[0])) {
                offences.add(read[0] + " reads a table of " + owner + " without being listed in FOREIGN_READS");
            }
        }
        System.out.println("table writers: " + storesByTable);
        assertThat(offences).isEmpty();
        assertThat(storesByTable.keySet()).as("every migrated table has an owner").containsAll(tables);
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
