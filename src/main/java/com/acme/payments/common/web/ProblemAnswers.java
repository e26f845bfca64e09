package com.acme.payments.common.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The problems an endpoint answers besides those every endpoint can give (401/403 where a credential is
 * required, 413, 500, 503). The OpenAPI description is generated from it, beside the code that raises them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ProblemAnswers {

    ProblemType[] value();
}
