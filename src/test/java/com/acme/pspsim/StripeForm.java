package com.acme.pspsim;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Stripe request's parameters: {@code application/x-www-form-urlencoded} with nested keys written
 * flat ({@code metadata[orderRef]}, {@code line_items[0][price_data][unit_amount]}), as Stripe takes
 * them. Kept flat; {@link #children(String)} reads one level of a nested hash.
 */
final class StripeForm {

    private final Map<String, String> values;

    private StripeForm(Map<String, String> values) {
        this.values = values;
    }

    static StripeForm parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        if (text != null && !text.isEmpty()) {
            for (String pair : text.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                if (key.endsWith("[]")) { // expand[]=a&expand[]=b: keep each
                    int n = 0;
                    while (values.containsKey(key.substring(0, key.length() - 2) + "[" + n + "]")) {
                        n++;
                    }
                    key = key.substring(0, key.length() - 2) + "[" + n + "]";
                }
                values.put(key, value);
            }
        }
        return new StripeForm(values);
    }

    static StripeForm parse(byte[] body) {
        return parse(body == null ? null : new String(body, StandardCharsets.UTF_8));
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw StripeError.invalid(null, "Invalid request body: not application/x-www-form-urlencoded.");
        }
    }

    String get(String key) {
        return values.get(key);
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    /** {@code metadata[a]=1&metadata[b]=2} → {a=1, b=2} for prefix {@code metadata}. */
    Map<String, String> children(String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        String start = prefix + "[";
        values.forEach((k, v) -> {
            String rest = k.startsWith(start) ? k.substring(start.length()) : "";
            if (!rest.isEmpty() && rest.indexOf(']') == rest.length() - 1 && rest.indexOf('[') < 0) {
                out.put(rest.substring(0, rest.length() - 1), v);
            }
        });
        return out;
    }

    /** The top-level parameter names ({@code line_items} for {@code line_items[0][quantity]}). */
    Set<String> roots() {
        Set<String> roots = new java.util.LinkedHashSet<>();
        values.keySet().forEach(k -> roots.add(k.contains("[") ? k.substring(0, k.indexOf('[')) : k));
        return roots;
    }

    List<String> keys() {
        return new ArrayList<>(values.keySet());
    }

    /** The parameters, order-free: what an idempotent replay is compared by. */
    Map<String, String> fingerprint() {
        return Collections.unmodifiableMap(new TreeMap<>(values));
    }

    Long integer(String key) {
        String v = values.get(key);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw StripeError.invalid(key, "Invalid integer: " + v);
        }
    }
}
