package com.acme.payments.common.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call a controller method. Checked by {@link AccessInterceptor} before the body is read, so
 * 401/403 always come before 404 and 400.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
public @interface Allow {

    Role[] value();

    enum Role {
        /** A shop backend key. */
        SHOP,
        /** An operator key. */
        ADMIN,
        /** The client token of the order named by the {@code orderRef} path variable. */
        ORDER_TOKEN
    }
}
