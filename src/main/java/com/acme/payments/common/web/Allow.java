package com.acme.payments.common.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call a controller method: a key holding any of {@link #scopes()} or, where {@link #orderToken()}, the
 * client token of the order its path names. A {@code GET} under {@code /api/} also admits {@link Scope#READ},
 * unless the rule names {@link Scope#KEYS}. Enforced by {@link AccessRules} in the Spring Security chain, before
 * the handler's arguments (so the body) are resolved: 401/403 always come before 404 and 400.
 */
@Documented
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
public @interface Allow {

    /** The scopes any one of which admits a key. */
    Scope[] scopes();

    /** Whether the client token of the order named by the {@code orderRef} path variable is admitted too. */
    boolean orderToken() default false;
}
