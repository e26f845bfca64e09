/**
 * The request's edge, everything between the socket and a controller's typed arguments: the body size
 * limit and edge headers (filters), the Spring Security chain ({@code SecuritySetup}: {@code Authorization:
 * Bearer} keys with scopes, per-order client tokens, constant-time comparison) enforcing {@code @Allow} /
 * {@code @Public} before any body is read, the path look-ups that answer 404 next, the request body reader that answers 400 last
 * (the contract's precedence 401/403 → 404 → 400), and RFC 9457 problem responses with their catalogue
 * ({@code ProblemType}). {@code WebConfig} registers all of it with Spring MVC.
 */
package com.acme.payments.common.web;
