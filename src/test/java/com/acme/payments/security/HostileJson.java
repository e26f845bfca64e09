package com.acme.payments.security;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.acme.payments.common.web.StorableText;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators for hostile JSON, used programmatically with a fixed seed (jqwik's own lifecycle does
 * not run Spring's test extension). Values are raw bytes so that invalid UTF-8 can be sent too.
 */
final class HostileJson {

    /** Pieces no text column may hold or that confuse display and parsing. */
    static final List<String> UNICODE_EDGES = List.of(
            "\u0000",            // NUL: PostgreSQL text cannot hold it
            "\uD800",            // lone high surrogate
            "\uDFFF",            // lone low surrogate
            "\uDC00\uD800",      // surrogates in the wrong order
            "\u202E",            // RIGHT-TO-LEFT OVERRIDE
            "\u200F\u061C",      // RTL mark, Arabic letter mark
            "e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301", // stacked combining accents
            "\uD83D\uDE00",      // 4-byte emoji 😀
            "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67", // ZWJ family
            "\uFEFF",            // BOM
            "\u200B",            // zero-width space
            "\uFFFF",            // noncharacter
            "\\", "\"", "/", "\n", "\u2028", "%00", "'; --", "<script>");

    /** Pieces that no text column can hold: NUL and unpaired surrogates. */
    static final List<String> UNSTORABLE = List.of("\u0000", "\uD800", "\uDFFF", "\uDC00\uD800", "x\uD83D");

    /** Number edges as raw JSON tokens (some of which are not JSON at all). */
    static final List<String> NUMBER_TOKENS = List.of("1e309", "-1e309", "-0", "-0.0", "0.1e-400", "1e-400",
            "99999999999999999999999", "-99999999999999999999999", "1E400000000", "1e-2147483648", "NaN",
            "Infinity", "-Infinity", "0x10", "1_000", ".5", "5.", "+1", "--1", "1.0e+", "01", "1e", "0",
            "0.001", "1000000000000", "-10.00");

    /** Number edges as JSON strings. */
    static final List<String> NUMBER_STRINGS = List.of("1e309", "-1e309", "-0", "-0.00", "0.1e-400",
            "99999999999999999999999", "1E400000000", "1e-2147483648", "NaN", "Infinity", "0x10", "0X1A",
            "1_000", "10,00", " ", "", "+-1", "1e", "0", "0.001", "1000000000000", "-10.00",
            "\u0661\u0660.\u0660\u0660", "\uFF11\uFF10", "10.00\u0000", "10\u202E.00");

    private HostileJson() {
    }

    /** A JSON string literal; {@code escaped} writes non-ASCII as {@code \\uXXXX}, else as raw UTF-8. */
    static byte[] stringLiteral(String value, boolean escaped) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.writeBytes(new byte[] { '\\', (byte) c });
            } else if (c < 0x20 || (escaped && c > 0x7e)) {
                out.writeBytes(String.format("\\u%04x", (int) c).getBytes(StandardCharsets.US_ASCII));
            } else if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1));
                if (paired) {
                    out.writeBytes(value.substring(i, i + 2).getBytes(StandardCharsets.UTF_8));
                    i++;
                } else {
                    // a lone surrogate in raw "UTF-8" (CESU style): invalid UTF-8 on purpose
                    out.write(0xE0 | (c >> 12));
                    out.write(0x80 | ((c >> 6) & 0x3F));
                    out.write(0x80 | (c & 0x3F));
                }
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        out.write('"');
        return out.toByteArray();
    }

    /** A string mixing ASCII with at least one piece from {@code pieces}. */
    static Arbitrary<String> edgyText(List<String> pieces) {
        Arbitrary<String> piece = Arbitraries.of(pieces);
        Arbitrary<String> ascii = Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(6);
        return Combinators.combine(ascii, piece, piece.list().ofMaxSize(4), ascii)
                .as((a, p, more, b) -> a + p + String.join("", more) + b);
    }

    static Arbitrary<byte[]> unicodeString(List<String> pieces) {
        return Combinators.combine(edgyText(pieces), Arbitraries.of(true, false)).as(HostileJson::stringLiteral);
    }

    /** Text that really cannot be stored: pieces can pair up into valid surrogate pairs, so each is checked. */
    static Arbitrary<byte[]> unstorableString() {
        return Combinators.combine(edgyText(UNSTORABLE).filter(t -> !StorableText.isStorable(t)),
                Arbitraries.of(true, false)).as(HostileJson::stringLiteral);
    }

    static Arbitrary<byte[]> numberEdge() {
        return Arbitraries.oneOf(
                Arbitraries.of(NUMBER_TOKENS).map(t -> t.getBytes(StandardCharsets.US_ASCII)),
                Arbitraries.of(NUMBER_STRINGS).map(s -> stringLiteral(s, true)));
    }

    static Arbitrary<byte[]> wrongTyped() {
        return Arbitraries.of("true", "false", "[]", "{}", "[1,\"a\"]", "{\"x\":\"y\"}", "[null]", "[{}]")
                .map(s -> s.getBytes(StandardCharsets.US_ASCII));
    }

    /** Arrays and objects nested 2 to 5000 deep (past Jackson's nesting limit at the upper end). */
    static Arbitrary<byte[]> deeplyNested() {
        return Combinators.combine(Arbitraries.integers().between(2, 5000), Arbitraries.of(true, false))
                .as((depth, arrays) -> {
                    StringBuilder s = new StringBuilder();
                    for (int i = 0; i < depth; i++) {
                        s.append(arrays ? "[" : "{\"a\":");
                    }
                    s.append("1");
                    for (int i = 0; i < depth; i++) {
                        s.append(arrays ? "]" : "}");
                    }
                    return s.toString().getBytes(StandardCharsets.US_ASCII);
                });
    }

    /** Huge values: long strings (some past the 1 MiB body limit), long digit runs, long arrays. */
    static Arbitrary<byte[]> huge() {
        return Arbitraries.of(0, 1, 2, 3, 4).map(kind -> switch (kind) {
            case 0 -> stringLiteral("a".repeat(100_000), false);
            case 1 -> stringLiteral("\uD83D\uDE00".repeat(300_000), false); // 1.2 MB of emoji: 413
            case 2 -> "9".repeat(20_000).getBytes(StandardCharsets.US_ASCII);
            case 3 -> ("[" + "1,".repeat(100_000) + "1]").getBytes(StandardCharsets.US_ASCII);
            default -> ("\"" + "\\u0000".repeat(50_000) + "\"").getBytes(StandardCharsets.US_ASCII);
        });
    }

    /** Any hostile value for a slot; numbers left out where a number could read as a valid text. */
    static Arbitrary<byte[]> anyValue(boolean numbers, List<String> unicodePieces) {
        return numbers
                ? Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, unicodeString(unicodePieces)),
                        net.jqwik.api.Tuple.of(3, numberEdge()),
                        net.jqwik.api.Tuple.of(2, wrongTyped()),
                        net.jqwik.api.Tuple.of(2, deeplyNested()),
                        net.jqwik.api.Tuple.of(1, huge()))
                : Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(4, unicodeString(unicodePieces)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.of("[]", "{}", "[1]", "{\"x\":1}")
                                .map(s -> s.getBytes(StandardCharsets.US_ASCII))),
                        net.jqwik.api.Tuple.of(2, deeplyNested()),
                        net.jqwik.api.Tuple.of(1, huge()));
    }

    /**
     * For free-text fields, where any storable string is legitimate: text no column can hold, containers,
     * deep nesting, huge values. Never a scalar that would coerce to valid text.
     */
    static Arbitrary<byte[]> unstorableOrNonScalar() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, unstorableString()),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("[]", "{}", "[\"x\"]", "{\"x\":1}")
                        .map(s -> s.getBytes(StandardCharsets.US_ASCII))),
                net.jqwik.api.Tuple.of(2, deeplyNested()),
                net.jqwik.api.Tuple.of(1, huge()));
    }

    /** A prefix of {@code body} that is never the whole body nor empty. */
    static Arbitrary<byte[]> truncated(byte[] body) {
        return Arbitraries.integers().between(1, body.length - 1).map(n -> java.util.Arrays.copyOf(body, n));
    }

    /** Bytes that are not a JSON object at all: random bytes, invalid UTF-8, nested arrays at the root. */
    static Arbitrary<byte[]> notAnObject() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64),
                Arbitraries.of(new byte[] { (byte) 0xC0, (byte) 0xAE }, new byte[] { '{', '"', (byte) 0xFF, '"', ':', '1', '}' },
                        "null".getBytes(), "\"x\"".getBytes(), "[]".getBytes(), "{".getBytes(), "}".getBytes(),
                        "{\"a\":1,}".getBytes(), "{'a':1}".getBytes(), "{\"a\" 1}".getBytes()),
                deeplyNested().filter(b -> b[0] == '['));
    }

    /**
     * Fixes the seed of jqwik's thread-local source of randomness, which {@link Arbitrary#sample()} draws
     * from outside a jqwik property (an engine class: jqwik has no public API for this).
     */
    static void seed(long seed) {
        net.jqwik.engine.SourceOfRandomness.create(Long.toString(seed));
    }

    static <T> T sample(Arbitrary<T> arbitrary) {
        return arbitrary.sample();
    }
}
