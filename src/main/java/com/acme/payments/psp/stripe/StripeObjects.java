package com.acme.payments.psp.stripe;

import java.math.BigDecimal;
import java.util.Locale;

import com.acme.payments.psp.PaymentPayloadRules;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;

import tools.jackson.databind.JsonNode;

/**
 * The one mapping of Stripe's objects ({@code checkout.session}, {@code payment_intent}, {@code refund},
 * as at API version {@link #API_VERSION}) into our {@link PspPayment}, shared by the
 * adapter's answers and the webhook. Stripe's states become ours by the contract's table
 * (http-contract.md, "Stripe as the PSP"); anything Stripe adds later is {@link PaymentState#UNRECOGNIZED}:
 * non-final, so it moves nothing. Amounts arrive in Stripe's minor units and leave in our major units
 * ({@link StripeMoney}); currencies leave upper case.
 *
 * <p>Our reference is {@code client_reference_id} or {@code metadata[attempt]} for a deposit and
 * {@code metadata[referenceId]} for a refund. A session's {@code id} is the session's ({@code cs_…})
 * until its PaymentIntent is known, then the PaymentIntent's ({@code pi_…}): the payment the order
 * books is the PaymentIntent, and a webhook about the PaymentIntent names only that.
 *
 * <p>A PaymentIntent id, from a session or a PaymentIntent, {@linkplain PspPayment#supersedesProvisional()
 * supersedes} the session id the attempt of its reference may still hold, once the customer is past trying
 * ({@link #supersedes}); a session id never does. For a
 * session that names its PaymentIntent both ids are at hand; a PaymentIntent does not name its session, and
 * its {@code metadata[attempt]} is enough: the attempt's reference is the session create's Idempotency-Key,
 * never replaced by a new key, so the attempt has one session; a payment-mode session has one PaymentIntent
 * (a failed try leaves it in {@code requires_payment_method} for the next); and {@code metadata[attempt]}
 * reaches a PaymentIntent only through that session's {@code payment_intent_data}. The PaymentIntent of
 * {@code metadata[attempt]=R} is therefore the one payment of R's one session. The order already books a
 * PaymentIntent by that reference alone, so the attempt's id trusts nothing the order does not.
 */
public final class StripeObjects {

    /**
     * The API version every call of the adapter pins with {@code Stripe-Version}, and the shapes read here:
     * the same as billing's {@code StripeApiClient.API_VERSION} (a test holds them equal; this package does
     * not depend on billing's).
     */
    public static final String API_VERSION = "2025-08-27.basil";

    public static final String SESSION = "checkout.session";
    public static final String PAYMENT_INTENT = "payment_intent";
    public static final String REFUND = "refund";
    static final String DEPOSIT = "DEPOSIT";
    static final String REFUND_TYPE = "REFUND";

    private StripeObjects() {
    }

    /**
     * Any of the three objects, by its {@code object} field.
     *
     * @throws IllegalArgumentException when it is none of them, or not an object with an id
     * @throws com.acme.payments.psp.PaymentPayloadFault when a value cannot be booked
     */
    public static PspPayment fromJson(JsonNode object) {
        return bookable(read(object));
    }

    /**
     * {@link #fromJson} without the bookability check: a webhook keeps the receipt of a payment holding a
     * value we cannot book ({@link PaymentPayloadRules#faultIn}) and lets the replay read Stripe's truth.
     *
     * @throws IllegalArgumentException when it is none of the three objects, or not an object with an id
     */
    public static PspPayment read(JsonNode object) {
        String type = text(requireObject(object), "object");
        if (SESSION.equals(type)) {
            return session(object);
        }
        if (PAYMENT_INTENT.equals(type)) {
            return paymentIntent(object);
        }
        if (REFUND.equals(type)) {
            return refund(object);
        }
        throw new IllegalArgumentException("not a Stripe checkout.session, payment_intent or refund: " + type);
    }

    /**
     * The session of {@code checkout.session.async_payment_failed}: it still reads {@code complete} and
     * {@code unpaid}, the event itself is the verdict (the delayed method failed): {@code DECLINED}.
     */
    public static PspPayment asyncPaymentFailed(JsonNode session) {
        PspPayment read = session(session);
        return new PspPayment(read.id(), read.referenceId(), read.paymentType(), PaymentState.DECLINED.name(),
                read.amount(), read.currency(), read.redirectUrl(), "async_payment_failed",
                "the delayed payment method failed", read.parentPaymentId(), read.supersedesProvisional());
    }

    /**
     * A Checkout Session. Its {@code payment_intent} may be an id or, when read with
     * {@code expand[]=payment_intent}, the PaymentIntent itself: then the PaymentIntent's status decides
     * what the session's {@code payment_status} cannot tell (a manual-capture session completes
     * {@code unpaid} while its PaymentIntent is {@code requires_capture}).
     */
    public static PspPayment fromSession(JsonNode session) {
        return bookable(session(session));
    }

    private static PspPayment session(JsonNode session) {
        String sessionId = requireId(session);
        JsonNode intent = session.get("payment_intent");
        JsonNode expanded = intent != null && intent.isObject() ? intent : null;
        String intentId = expanded != null ? requireId(expanded) : text(session, "payment_intent");
        String status = text(session, "status");
        String paymentStatus = text(session, "payment_status");
        String currency = upper(text(session, "currency"));
        PaymentState state = sessionState(status, paymentStatus, expanded);
        String errorCode = null;
        String errorMessage = null;
        if ("expired".equals(status)) {
            errorCode = "expired";
            errorMessage = "the Checkout Session expired";
        } else if (expanded != null && state.isFailure()) {
            errorCode = intentErrorCode(expanded);
            errorMessage = intentErrorMessage(expanded);
        }
        BigDecimal amount = minorToMajor(session, "amount_total", currency);
        // with its PaymentIntent known, the session is reported as that: the id the session's stood in for
        return new PspPayment(intentId != null ? intentId : sessionId, depositReference(session), DEPOSIT,
                state.name(), amount, currency, text(session, "url"), errorCode, errorMessage, null,
                intentId != null && supersedes(state));
    }

    /**
     * Whether a PaymentIntent's id in this state replaces the session id its attempt holds. Not while the
     * customer is still at it ({@code CHECKOUT}: a failed try leaves the PaymentIntent
     * {@code requires_payment_method} on an open session): then the attempt keeps the session's, the one
     * object whose read tells that it expired, for the pull path (return page, straggler poll) to read.
     */
    private static boolean supersedes(PaymentState state) {
        return state != PaymentState.CHECKOUT;
    }

    /** A PaymentIntent (ours carry {@code metadata[attempt]}). */
    public static PspPayment fromPaymentIntent(JsonNode intent) {
        return bookable(paymentIntent(intent));
    }

    private static PspPayment paymentIntent(JsonNode intent) {
        String id = requireId(intent);
        String currency = upper(text(intent, "currency"));
        PaymentState state = intentState(text(intent, "status"));
        // what moved: the received amount once succeeded, the authorized (capturable) one while held
        String amountField = state == PaymentState.COMPLETED ? "amount_received"
                : state == PaymentState.AUTHORIZED ? "amount_capturable" : "amount";
        BigDecimal amount = minorToMajor(intent, amountField, currency);
        if (amount == null || amount.signum() == 0 && state != PaymentState.COMPLETED) {
            amount = minorToMajor(intent, "amount", currency);
        }
        return new PspPayment(id, text(intent.path("metadata"), "attempt"), DEPOSIT, state.name(), amount,
                currency, null, state.isFailure() ? intentErrorCode(intent) : null,
                state.isFailure() ? intentErrorMessage(intent) : null, null, supersedes(state));
    }

    /** A Refund: ours carry {@code metadata[referenceId]}; its parent is the PaymentIntent. */
    public static PspPayment fromRefund(JsonNode refund) {
        return bookable(refund(refund));
    }

    private static PspPayment refund(JsonNode refund) {
        String id = requireId(refund);
        String currency = upper(text(refund, "currency"));
        PaymentState state = refundState(text(refund, "status"));
        String failure = text(refund, "failure_reason");
        return new PspPayment(id, text(refund.path("metadata"), "referenceId"), REFUND_TYPE, state.name(),
                minorToMajor(refund, "amount", currency), currency, null, failure,
                failure == null ? null : "Stripe refund " + text(refund, "status") + ": " + failure,
                idOf(refund, "payment_intent"));
    }

    /** Our reference on a deposit object: {@code client_reference_id}, else {@code metadata[attempt]}. */
    public static String depositReference(JsonNode object) {
        String reference = text(object, "client_reference_id");
        return reference != null ? reference : text(object.path("metadata"), "attempt");
    }

    static PaymentState sessionState(String status, String paymentStatus, JsonNode expandedIntent) {
        if ("expired".equals(status)) {
            return PaymentState.CANCELLED;
        }
        if ("complete".equals(status) && "paid".equals(paymentStatus)) {
            return PaymentState.COMPLETED;
        }
        PaymentState intent = expandedIntent == null ? null : intentState(text(expandedIntent, "status"));
        if (intent == PaymentState.COMPLETED || intent == PaymentState.AUTHORIZED
                || intent == PaymentState.CANCELLED) {
            return intent;
        }
        if ("complete".equals(status)) {
            return PaymentState.PENDING; // unpaid: an async method, its outcome comes later
        }
        return "open".equals(status) ? PaymentState.CHECKOUT : PaymentState.UNRECOGNIZED;
    }

    /**
     * PaymentIntent statuses: {@code requires_payment_method}/{@code requires_confirmation}/{@code requires_action}
     * mean the customer is still at it (a failed try leaves it in {@code requires_payment_method}: no change).
     */
    static PaymentState intentState(String status) {
        if (status == null) {
            return PaymentState.UNRECOGNIZED;
        }
        return switch (status) {
            case "succeeded" -> PaymentState.COMPLETED;
            case "requires_capture" -> PaymentState.AUTHORIZED;
            case "canceled" -> PaymentState.CANCELLED;
            case "processing" -> PaymentState.PENDING;
            case "requires_payment_method", "requires_confirmation", "requires_action" -> PaymentState.CHECKOUT;
            default -> PaymentState.UNRECOGNIZED;
        };
    }

    static PaymentState refundState(String status) {
        if (status == null) {
            return PaymentState.UNRECOGNIZED;
        }
        return switch (status) {
            case "succeeded" -> PaymentState.COMPLETED;
            case "pending", "requires_action" -> PaymentState.PENDING;
            case "failed" -> PaymentState.DECLINED;
            case "canceled" -> PaymentState.CANCELLED;
            default -> PaymentState.UNRECOGNIZED;
        };
    }

    /** The decline code where the card network gave one, else Stripe's error code, else why it was canceled. */
    private static String intentErrorCode(JsonNode intent) {
        JsonNode error = intent.path("last_payment_error");
        String code = text(error, "decline_code");
        code = code != null ? code : text(error, "code");
        return code != null ? code : text(intent, "cancellation_reason");
    }

    private static String intentErrorMessage(JsonNode intent) {
        return text(intent.path("last_payment_error"), "message");
    }

    /** The id of an expandable field: the string itself, or the expanded object's {@code id}. */
    public static String idOf(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value != null && value.isObject()) {
            return text(value, "id");
        }
        return text(object, field);
    }

    private static BigDecimal minorToMajor(JsonNode object, String field, String currency) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException(field + " is not an integer amount in minor units");
        }
        if (currency == null) {
            throw new IllegalArgumentException(field + " without a currency");
        }
        return StripeMoney.toMajor(value.longValue(), currency);
    }

    private static PspPayment bookable(PspPayment payment) {
        return PaymentPayloadRules.requireBookable(payment);
    }

    private static JsonNode requireObject(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("Stripe object is not a JSON object");
        }
        return node;
    }

    private static String requireId(JsonNode node) {
        String id = text(requireObject(node), "id");
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("Stripe object has no id");
        }
        return id;
    }

    private static String upper(String currency) {
        return currency == null ? null : currency.toUpperCase(Locale.ROOT);
    }

    static String text(JsonNode node, String field) {
        return PaymentPayloadRules.text(node, field);
    }
}
