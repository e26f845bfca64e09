/**
 * No classes of its own: the shared parts the features build on, one sub-package each. {@code web} (RFC 9457
 * problems and their catalogue {@code ProblemType}, JSON body reading, the body size limit), {@code security}
 * (shop and admin keys, order tokens, {@code @Allow}), {@code money} (currencies and amounts), {@code http}
 * (the outbound HTTP client), {@code config} (settings checks, the clock, clean exit) and {@code audit} (the operator audit
 * trail). The sweep framework is its own top-level package ({@code sweep}), the operators' list of
 * unresolved work lives in {@code operator}.
 */
package com.acme.payments.common;
