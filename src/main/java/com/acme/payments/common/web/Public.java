package com.acme.payments.common.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The explicit rule for a mapping that takes no bearer credential (a webhook authenticated by the
 * signature over its body). {@link AccessRules} refuses every mapping that carries neither this
 * nor {@link Allow}, so a new endpoint is closed until someone decides who may call it.
 */
@Documented
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
public @interface Public {

    /** Why no credential is needed: what authenticates the request instead. */
    String value();
}
