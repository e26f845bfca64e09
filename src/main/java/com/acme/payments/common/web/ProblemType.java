package com.acme.payments.common.web;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * Every problem {@code type} the service answers, declared once: the slug (the stable part of the
 * {@code type} URI — clients branch on it, so it never changes meaning; new ones are added), the status,
 * the title, what it means, and whether the answer carries {@code Retry-After}. The exceptions, the
 * advice and the OpenAPI description all read it from here.
 */
public enum ProblemType {

    UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized",
            "no credential, or one the service does not know"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "forbidden", "Forbidden",
            "a valid credential that may not act on this endpoint or this order"),
    INSUFFICIENT_SCOPE(HttpStatus.FORBIDDEN, "insufficient-scope", "Insufficient scope",
            "a valid key without the scope this endpoint needs, named in `detail`"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "Not found", "no such order, attempt or row"),
    VALIDATION_FAILED(HttpStatus.BAD_REQUEST, "validation-failed", "Invalid request",
            "missing or invalid fields, listed in `errors`"),
    MALFORMED_REQUEST(HttpStatus.BAD_REQUEST, "malformed-request", "Malformed request",
            "the body is missing or is not JSON"),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Payload too large",
            "the body is over 1 MiB"),
    AMOUNT_NOT_SUPPORTED(HttpStatus.UNPROCESSABLE_CONTENT, "amount-not-supported", "Amount not supported",
            "the payment provider cannot charge this amount exactly in this currency, or it is below its minimum"),
    ORDER_REF_CONFLICT(HttpStatus.CONFLICT, "order-ref-conflict", "Order reference conflict",
            "the orderRef exists with a different amount or currency"),
    PAYMENT_OUTCOME_UNKNOWN(HttpStatus.CONFLICT, "payment-outcome-unknown", "Payment outcome unknown",
            "the PSP's answer was lost and the payment is not found yet; retry after Retry-After", true),
    CHECKOUT_IN_PROGRESS(HttpStatus.CONFLICT, "checkout-in-progress", "Checkout in progress",
            "another request is creating this order's payment; retry shortly", true),
    ORDER_NOT_PAYABLE(HttpStatus.CONFLICT, "order-not-payable", "Order not payable",
            "the order is already PAID or AUTHORIZED"),
    CHECKOUT_DECLINED(HttpStatus.UNPROCESSABLE_CONTENT, "checkout-declined", "Checkout declined",
            "the payment was declined (errorCode from the PSP); the order is free for a new checkout"),
    PSP_REJECTED(HttpStatus.BAD_GATEWAY, "psp-rejected", "Payment provider rejected the request",
            "the PSP refused the request (a 4xx, errorCode); nothing was charged"),
    REFUND_OUTCOME_UNKNOWN(HttpStatus.CONFLICT, "refund-outcome-unknown", "Refund outcome unknown",
            "the PSP's answer is not known yet; retry with the same Idempotency-Key after Retry-After", true),
    REFUND_BLOCKED_BY_UNKNOWN(HttpStatus.CONFLICT, "refund-blocked-by-unknown",
            "Refund blocked by an unresolved refund", "another refund on this order is unresolved", true),
    ORDER_NOT_REFUNDABLE(HttpStatus.CONFLICT, "order-not-refundable", "Order not refundable",
            "the order is not PAID"),
    REFUND_EXCEEDS_REMAINDER(HttpStatus.UNPROCESSABLE_CONTENT, "refund-exceeds-remainder",
            "Refund exceeds remainder", "more than what is left to refund (open refunds included)"),
    REFUND_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT, "refund-key-reused", "Refund key reused",
            "the Idempotency-Key was used with a different amount or currency"),
    ORDER_NOT_AUTHORIZED(HttpStatus.CONFLICT, "order-not-authorized", "Order not authorized",
            "only AUTHORIZED orders can be captured or voided"),
    CAPTURE_EXCEEDS_AUTHORIZED(HttpStatus.UNPROCESSABLE_CONTENT, "capture-exceeds-authorized",
            "Capture exceeds authorized", "more than the order's authorized amount"),
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused", "Idempotency key reused",
            "the Idempotency-Key was used for another capture or void of this order, or another amount"),
    ATTEMPT_NOT_OPEN(HttpStatus.CONFLICT, "attempt-not-open", "Attempt not open",
            "only an UNKNOWN attempt the PSP, asked once more, still does not show can be abandoned"),
    REFUND_NOT_OPEN(HttpStatus.CONFLICT, "refund-not-open", "Refund not open",
            "only an UNKNOWN refund the PSP, asked once more, still does not show can be abandoned"),
    INVALID_SIGNATURE(HttpStatus.UNAUTHORIZED, "invalid-signature", "Invalid signature",
            "the Signature header is missing or does not match the raw body"),
    OUTBOX_ROW_NOT_DEAD(HttpStatus.CONFLICT, "outbox-row-not-dead", "Outbox row not dead",
            "only a dead outbox row can be re-driven or discarded"),
    OUTBOX_ROW_NOT_SENT(HttpStatus.CONFLICT, "outbox-row-not-sent", "Outbox row not sent",
            "only an outbox row that was delivered can be resent"),
    DATABASE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "database-unavailable", "Database unavailable",
            "the database cannot be reached; retry shortly", true),
    CONCURRENT_UPDATE(HttpStatus.SERVICE_UNAVAILABLE, "concurrent-update", "Concurrent update",
            "another request changed the same data; retry shortly", true),
    SERVICE_BUSY(HttpStatus.SERVICE_UNAVAILABLE, "service-busy", "Service busy", "contention; retry shortly", true),
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error",
            "an unexpected failure; quote errorId to support"),
    NOT_CONFIGURED(HttpStatus.SERVICE_UNAVAILABLE, "not-configured", "Not configured",
            "this deployment lacks a setting the endpoint needs, named in `setting` (e.g. STRIPE_API_KEY)"),

    STRIPE_SIGNATURE_INVALID(HttpStatus.BAD_REQUEST, "stripe-signature-invalid", "Invalid Stripe signature",
            "the Stripe-Signature header is missing, malformed, wrong or stale"),
    STRIPE_EVENT_MALFORMED(HttpStatus.BAD_REQUEST, "stripe-event-malformed", "Malformed Stripe event",
            "a correctly signed body that is not an event"),
    STRIPE_WEBHOOK_NOT_CONFIGURED(HttpStatus.INTERNAL_SERVER_ERROR, "stripe-webhook-not-configured",
            "Stripe webhook not configured", "STRIPE_WEBHOOK_SECRET is not set"),
    STRIPE_EVENT_IN_FLIGHT(HttpStatus.SERVICE_UNAVAILABLE, "stripe-event-in-flight", "Event in progress",
            "another worker is processing this event; Stripe redelivers it", true),
    STRIPE_EVENT_FAILED(HttpStatus.INTERNAL_SERVER_ERROR, "stripe-event-failed", "Event processing failed",
            "the event could not be applied; it is processed afresh when Stripe redelivers it"),
    STRIPE_API_UNAVAILABLE(HttpStatus.BAD_GATEWAY, "stripe-api-unavailable", "Stripe API unavailable",
            "the Stripe API could not be read; try again later"),
    SUBSCRIPTION_USER_UNKNOWN(HttpStatus.UNPROCESSABLE_CONTENT, "subscription-user-unknown",
            "Subscription user unknown", "the subscription names no user the service knows; nothing can be granted"),

    // Refusals before any endpoint ran (Spring MVC, Tomcat): the title is the status's reason phrase.
    BAD_REQUEST(HttpStatus.BAD_REQUEST, "bad-request", "Bad Request", "a request refused before it reached an endpoint"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method Not Allowed",
            "the path exists with other methods"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not Acceptable",
            "the Accept header names no type the endpoint produces"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported Media Type",
            "the Content-Type is not one the endpoint reads"),
    REQUEST_HEADER_FIELDS_TOO_LARGE(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "request-header-fields-too-large",
            "Request Header Fields Too Large", "the request's headers are over the server's limit"),
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "service-unavailable", "Service Unavailable",
            "the server is not taking requests");

    public static final String BASE = "https://payments.acme.example/problems/";

    private final HttpStatus status;
    private final String slug;
    private final String title;
    private final String meaning;
    private final boolean retryAfter;

    ProblemType(HttpStatus status, String slug, String title, String meaning) {
        this(status, slug, title, meaning, false);
    }

    ProblemType(HttpStatus status, String slug, String title, String meaning, boolean retryAfter) {
        this.status = status;
        this.slug = slug;
        this.title = title;
        this.meaning = meaning;
        this.retryAfter = retryAfter;
    }

    public HttpStatus status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    public String meaning() {
        return meaning;
    }

    /** Whether the answer carries {@code Retry-After}. */
    public boolean retryAfter() {
        return retryAfter;
    }

    public URI uri() {
        return URI.create(BASE + slug);
    }

    /** The {@code type} of a status nothing above names: {@code http-<status>}. */
    public static URI forUnnamedStatus(int status) {
        return URI.create(BASE + "http-" + status);
    }
}
