package com.acme.payments.common.web;

import java.util.Optional;

/**
 * Finds the row a path variable names, or answers 404. A controller declares the row's type as a
 * parameter instead of the variable ({@link PathLookupResolver}); arguments are resolved in parameter
 * order after the access check (an interceptor), so a row declared before the {@code @RequestBody} keeps
 * the contract's precedence: 401/403, then 404, then 400.
 */
public abstract class PathLookup<T> {

    private final Class<T> type;
    private final String variable;
    private final String what;

    /**
     * @param type the parameter type this lookup resolves
     * @param variable the path variable that names the row, e.g. {@code orderRef}
     * @param what the row's name in the 404 problem ("Order was not found.")
     */
    protected PathLookup(Class<T> type, String variable, String what) {
        this.type = type;
        this.variable = variable;
        this.what = what;
    }

    /** The row, if the value names one. */
    protected abstract Optional<T> find(String value);

    /** The row, or a 404 problem. */
    public final T require(String value) {
        return find(value).orElseThrow(() -> new Problems.NotFound(what));
    }

    final Class<T> type() {
        return type;
    }

    final String variable() {
        return variable;
    }
}
