package com.acme.payments.order;

import java.util.regex.Pattern;

/** The shape of a shop's order reference: short, printable, safe in a URL path. */
public final class OrderRefs {

    public static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9._:-]{0,63}";
    private static final Pattern COMPILED = Pattern.compile(PATTERN);

    private OrderRefs() {
    }

    public static boolean isWellFormed(String orderRef) {
        return orderRef != null && COMPILED.matcher(orderRef).matches();
    }
}
