package com.acme.payments.migration;

import java.util.ArrayList;
import java.util.List;

/**
 * Just enough of PostgreSQL's lexical structure to cut a migration into statements: comments are dropped,
 * quoted strings, quoted names and dollar-quoted bodies (a DO block's) are kept whole.
 */
final class Sql {

    private Sql() {
    }

    static List<String> statements(String sql) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
                current.append(' ');
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
                current.append(' ');
            } else if (c == '\'' || c == '"') {
                int end = closing(sql, i, c);
                current.append(sql, i, end);
                i = end;
            } else if (c == '$' && dollarTag(sql, i) != null) {
                String tag = dollarTag(sql, i);
                int close = sql.indexOf(tag, i + tag.length());
                int end = close < 0 ? sql.length() : close + tag.length();
                current.append(sql, i, end);
                i = end;
            } else if (c == ';') {
                add(statements, current);
                current.setLength(0);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        add(statements, current);
        return statements;
    }

    /** Splits an ALTER TABLE's action list at the commas outside parentheses. */
    static List<String> topLevelCommaSplit(String actions) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < actions.length(); i++) {
            char c = actions.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(actions.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(actions.substring(start));
        return parts;
    }

    private static int closing(String sql, int open, char quote) {
        int i = open + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2; // doubled quote: part of the text
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** {@code $tag$} or {@code $$} starting at {@code i}, or null when the dollar is not a quote's start. */
    private static String dollarTag(String sql, int i) {
        int j = i + 1;
        while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        if (j < sql.length() && sql.charAt(j) == '$' && (j == i + 1 || !Character.isDigit(sql.charAt(i + 1)))) {
            return sql.substring(i, j + 1);
        }
        return null;
    }

    private static void add(List<String> statements, StringBuilder current) {
        String statement = current.toString().trim();
        if (!statement.isEmpty()) {
            statements.add(statement);
        }
    }
}
