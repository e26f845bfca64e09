package com.acme.payments.common.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Marks a row parameter resolved from the {@code {referenceId}} path variable (an attempt's or a refund's
 * {@link PathLookup}), so the OpenAPI description shows the variable it comes from, as a plain string.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Parameter(name = "referenceId", in = ParameterIn.PATH, required = true, schema = @Schema(type = "string"))
public @interface ReferenceIdParameter {
}
