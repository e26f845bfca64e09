package com.acme.payments.operator;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a handler an operator action, next to its {@code @Allow}: {@link OperatorAudit} records it
 * under the admin key's name when the handler hands over its {@link OperatorNote} (its preconditions held,
 * the action is asked for), and adds the answer's outcome when the request completes.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Audited {

    /** The action's name in the trail, e.g. {@code abandon}. */
    String action();

    /**
     * The resource acted on, e.g. {@code attempt:{referenceId}}: each {@code {name}} is the request's path
     * variable of that name or, when there is none, its header (a refund's {@code Idempotency-Key}).
     */
    String target();
}
