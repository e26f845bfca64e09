package com.acme.payments.support;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * PSP payment objects holding one value we cannot book, one per fault class, in the
 * PSP's own shape: for signed webhooks and for look-up answers alike.
 */
public final class PayloadFaults {

    /** The longest id, reference or code the service books (PaymentPayloadRules.MAX_TEXT). */
    public static final int MAX_TEXT = 255;
    private static final String LONG = "r".repeat(MAX_TEXT + 45);

    private PayloadFaults() {
    }

    /**
     * One fault class: the order's amount and currency (and the PSP's good truth), the payment's fields that
     * differ from it (raw JSON values), and the fault's kind (the metric's {@code fault} tag).
     */
    public record Fault(String name, String amount, String currency, Map<String, String> overrides, String kind) {
        @Override
        public String toString() {
            return name;
        }

        /** A COMPLETED deposit with this fault. */
        public String payment(String id, String referenceId) {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("id", quoted(id));
            fields.put("referenceId", referenceId == null ? "null" : quoted(referenceId));
            fields.put("paymentType", "\"DEPOSIT\"");
            fields.put("state", "\"COMPLETED\"");
            fields.put("amount", quoted(amount));
            fields.put("currency", quoted(currency));
            fields.putAll(overrides);
            return fields.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                    .collect(Collectors.joining(",", "{", "}"));
        }
    }

    /** Every fault class whose payment id is still one the PSP can be asked about. */
    public static Stream<Fault> all() {
        return Stream.of(
                new Fault("currency not ISO-4217 (EURO)", "13.00", "EUR", Map.of("currency", "\"EURO\""), "currency"),
                new Fault("currency of three letters that is no code (ZZZ)", "13.00", "EUR", Map.of("currency", "\"ZZZ\""), "currency"),
                new Fault("negative amount", "13.00", "EUR", Map.of("amount", "\"-13.00\""), "negative_amount"),
                new Fault("zero for COMPLETED", "13.00", "EUR", Map.of("amount", "\"0.00\""), "zero_amount"),
                new Fault("EUR with three fraction digits", "13.00", "EUR", Map.of("amount", "\"13.001\""), "fraction_digits"),
                new Fault("JPY with a fraction digit", "1300", "JPY", Map.of("amount", "\"1300.5\""), "fraction_digits"),
                new Fault("BHD with four fraction digits", "13.000", "BHD", Map.of("amount", "13.0001"), "fraction_digits"),
                new Fault("amount past any order (1e20)", "13.00", "EUR", Map.of("amount", "1e20"), "amount_too_large"),
                new Fault("COMPLETED without amount", "13.00", "EUR", Map.of("amount", "null"), "missing_amount"),
                new Fault("amount that is a word", "13.00", "EUR", Map.of("amount", "\"ten\""), "amount_not_a_number"),
                new Fault("amount that is a boolean", "13.00", "EUR", Map.of("amount", "true"), "amount_not_a_number"),
                new Fault("amount that is an object", "13.00", "EUR", Map.of("amount", "{\"value\":13}"), "amount_not_a_number"),
                new Fault("referenceId over 255 characters", "13.00", "EUR", Map.of("referenceId", quoted(LONG)), "text_too_long"),
                new Fault("parentPaymentId over 255 characters", "13.00", "EUR", Map.of("parentPaymentId", quoted(LONG)), "text_too_long"),
                new Fault("errorCode over 255 characters", "13.00", "EUR", Map.of("errorCode", quoted(LONG)), "text_too_long"),
                new Fault("state of 20 000 random characters (past the unique index's entry size)", "13.00", "EUR",
                        Map.of("state", quoted(incompressible(20_000))), "text_too_long"));
    }

    /** The payment id itself over the limit: a look-up answer holding it, or a webhook that cannot be looked up. */
    public static Fault overlongId() {
        return new Fault("payment id over 255 characters", "13.00", "EUR", Map.of("id", quoted("pay-" + LONG)), "id_too_long");
    }

    /** Random URL-safe text, which no compression shrinks below a btree entry's limit. */
    public static String incompressible(int length) {
        byte[] bytes = new byte[length];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).substring(0, length);
    }

    private static String quoted(String value) {
        return "\"" + value + "\"";
    }
}
