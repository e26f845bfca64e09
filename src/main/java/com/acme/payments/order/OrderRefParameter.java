package com.acme.payments.order;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Marks a controller's {@link Order} parameter (resolved from {@code {orderRef}} by {@link OrderLookup})
 * so the OpenAPI description shows the path variable it comes from, as a plain string.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Parameter(name = "orderRef", in = ParameterIn.PATH, required = true, schema = @Schema(type = "string"))
public @interface OrderRefParameter {
}
