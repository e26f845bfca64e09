package com.acme.payments.common.config;

import org.springframework.boot.json.JsonWriter.Members;
import org.springframework.boot.json.JsonWriter.ValueProcessor;
import org.springframework.boot.logging.structured.StructuredLoggingJsonMembersCustomizer;

/**
 * The JSON log's last escape ({@code logging.structured.json.customizer}): JSON already escapes CR, LF and
 * the other C0 controls, but writes format characters (the bidirectional overrides and isolates, zero-width
 * characters) and C1 controls as they are, so a value from a request could reorder what an operator reads.
 * Those are written as {@code \\uXXXX} text in every string value. The development pattern's counterpart is
 * the {@code %replace} chain of {@code logging.pattern.console}.
 */
public class LogValueEscaping implements StructuredLoggingJsonMembersCustomizer<Object> {

    @Override
    public void customize(Members<Object> members) {
        members.applyingValueProcessor(ValueProcessor.of(String.class, LogValueEscaping::escape));
    }

    static String escape(String value) {
        StringBuilder escaped = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean hidden = Character.getType(c) == Character.FORMAT || (c >= 0x80 && c <= 0x9f);
            if (hidden && escaped == null) {
                escaped = new StringBuilder(value.length() + 16).append(value, 0, i);
            }
            if (escaped != null) {
                if (hidden) {
                    escaped.append(String.format("\\u%04X", (int) c));
                } else {
                    escaped.append(c);
                }
            }
        }
        return escaped == null ? value : escaped.toString();
    }
}
