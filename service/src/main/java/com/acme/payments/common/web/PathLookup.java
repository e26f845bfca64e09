package com.acme.payments.common.web;

/**
 * Finds the row a path variable names, or throws a 404 problem. A controller declares the row's type as a
 * parameter instead of the variable ({@link PathLookupResolver}); arguments are resolved in parameter
 * order after the access check (an interceptor), so a row declared before the {@code @RequestBody} keeps
 * the contract's precedence: 401/403, then 404, then 400.
 */
public interface PathLookup<T> {

    /** The parameter type this lookup resolves. */
    Class<T> type();

    /** The path variable that names the row, e.g. {@code orderRef}. */
    String variable();

    /** The row, or a 404 problem. */
    T require(String value);
}
