/**
 * No classes of its own: the shared parts the features build on, one sub-package each. {@code web}
 * (the request's edge: the security chain, scopes and {@code @Allow}, the body size limit and reader, path look-ups, RFC 9457
 * problems and their catalogue {@code ProblemType}), {@code money} (currencies and amounts), {@code http}
 * (the outbound HTTP client), and {@code config} (settings checks, the clock,
 * clean exit). The sweep framework is its own top-level package ({@code sweep}); the operator audit and the
 * operators' list of unresolved work live in {@code operator}.
 */
package com.acme.payments.common;
