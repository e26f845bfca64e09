package com.acme.payments.sweep;

/** Conventions 7: a conditional write on one row turns its row count into a meaning; more than one is a bug. */
public final class Rows {

    private Rows() {
    }

    /** True for one row, false for none; more than one is an {@link IllegalStateException}. */
    public static boolean atMostOne(int rows, String table) {
        if (rows > 1) {
            throw new IllegalStateException("expected at most one " + table + " row, updated " + rows);
        }
        return rows == 1;
    }
}
