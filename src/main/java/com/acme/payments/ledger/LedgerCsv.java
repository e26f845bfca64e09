package com.acme.payments.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import com.acme.payments.common.money.Amounts;

/**
 * Writes movements as RFC 4180 CSV (CRLF, a header line, a field quoted when it holds a comma, a quote or a line
 * break) through Commons CSV, one record at a time. {@code occurredAt} is UTC with microseconds, fixed width,
 * so the file sorts as text too; {@code amount} is a plain decimal at the currency's scale, never negative.
 * <p>
 * A spreadsheet runs a cell that begins with {@code = + - @} (or a tab or CR) as a formula. An order reference
 * cannot begin with one (it is checked at creation), but the PSP's ids are only checked for length, and a refund
 * made elsewhere carries the PSP's id as its reference too: such a text cell is written with a leading
 * {@code '}, which spreadsheets show as text. Time, kind, amount and currency never begin with one.
 */
final class LedgerCsv implements AutoCloseable {

    static final String[] HEADER = { "occurredAt", "kind", "orderRef", "pspPaymentId", "referenceId", "amount",
            "currency" };
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setHeader(HEADER).get();

    private final CSVPrinter printer;

    LedgerCsv(Writer out) {
        try {
            this.printer = new CSVPrinter(out, FORMAT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void write(Movement movement) {
        try {
            printer.printRecord(TIME.format(movement.occurredAt()), movement.kind().label,
                    text(movement.orderRef()), text(movement.pspPaymentId()), text(movement.referenceId()),
                    Amounts.canonical(movement.amount(), movement.currency()).toPlainString(), movement.currency());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A text cell a spreadsheet would run as a formula, made text; null is an empty cell. */
    static String text(String value) {
        if (value == null || value.isEmpty()) {
            return value;
        }
        char first = value.charAt(0);
        boolean formula = first == '=' || first == '+' || first == '-' || first == '@' || first == '\t'
                || first == '\r';
        return formula ? "'" + value : value;
    }

    @Override
    public void close() {
        try {
            printer.close(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
