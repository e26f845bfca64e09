package com.acme.pspsim;

import java.util.List;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Stripe surface's inspection and test hooks ({@code /sim/stripe/**}, Bearer
 * {@code pspsim.admin-token}): what a browser on the hosted page would do, without one (complete,
 * decline, async outcome, expire), a pending refund's late truth, a refund made in the Dashboard and a
 * refund's late failure, and the recorded objects and events.
 */
@RestController
@RequestMapping("/sim/stripe")
class StripeAdminController {

    private final StripeBook book;
    private final StripeAccount account;
    private final StripeEventSender events;
    private final StripeIdempotency idempotency;
    private final JsonMapper json;

    StripeAdminController(StripeBook book, StripeAccount account, StripeEventSender events,
            StripeIdempotency idempotency, SimJson json) {
        this.book = book;
        this.account = account;
        this.events = events;
        this.idempotency = idempotency;
        this.json = json.mapper();
    }

    @GetMapping("/sessions")
    List<Map<String, Object>> sessions() {
        return book.locked(b -> b.sessions(s -> true).stream().map(StripeSession::view).toList());
    }

    @GetMapping("/payment_intents")
    List<Map<String, Object>> intents() {
        return book.locked(b -> b.intents().stream().map(StripeIntent::view).toList());
    }

    @GetMapping("/refunds")
    List<Map<String, Object>> refunds() {
        return book.locked(b -> b.refunds().stream().map(StripeRefund::view).toList());
    }

    /** How many POSTs each {@code Idempotency-Key} was sent with (lost, refused and replayed ones included). */
    @GetMapping("/idempotency-keys")
    Map<String, Integer> idempotencyKeys() {
        return idempotency.posts();
    }

    /** Every event made, in order, whether sent or not (Stripe's {@code GET /v1/events}, without paging). */
    @GetMapping("/events")
    List<Map<String, Object>> events() {
        return events.events();
    }

    /** Every delivery attempt with the endpoint's answer. */
    @GetMapping("/webhooks")
    List<StripeEventSender.Attempt> webhooks() {
        return events.attempts();
    }

    /** As the hosted page's buttons: body {@code {"outcome": "pay" | "decline" | "async"}} (default pay). */
    @PostMapping("/sessions/{id}/complete")
    Map<String, Object> complete(@PathVariable String id, @RequestBody(required = false) byte[] body) {
        String outcome = read(body).path("outcome").asString("pay");
        StripeSession s = account.confirm(id, outcome);
        return book.locked(b -> s.view());
    }

    /** An async payment's outcome: body {@code {"result": "succeeded" | "failed"}}. */
    @PostMapping("/sessions/{id}/async")
    Map<String, Object> async(@PathVariable String id, @RequestBody(required = false) byte[] body) {
        String result = read(body).path("result").asString("succeeded");
        if (!result.equals("succeeded") && !result.equals("failed")) {
            throw StripeError.invalid("result", "result must be succeeded or failed");
        }
        StripeSession s = account.settleAsync(id, result.equals("succeeded"));
        return book.locked(b -> s.view());
    }

    @PostMapping("/sessions/{id}/expire")
    Map<String, Object> expire(@PathVariable String id) {
        StripeSession s = account.expire(id);
        return book.locked(b -> s.view());
    }

    /** A pending refund settles now: body {@code {"status": "succeeded" | "failed" | "canceled", "failure_reason"?}}. */
    @PostMapping("/refunds/{id}/settle")
    Map<String, Object> settle(@PathVariable String id, @RequestBody byte[] body) {
        JsonNode request = read(body);
        String reason = request.hasNonNull("failure_reason") ? request.path("failure_reason").asString() : null;
        StripeRefund r = account.settleRefund(id, request.path("status").asString(""), reason);
        return book.locked(b -> r.view());
    }

    /**
     * A refund made in Stripe's Dashboard, not by the service: no {@code metadata} of its, no idempotency key;
     * pending, settled like any refund. Body {@code {"amount"?}} in minor units (default: what is left).
     */
    @PostMapping("/payment_intents/{id}/dashboard_refund")
    Map<String, Object> dashboardRefund(@PathVariable String id, @RequestBody(required = false) byte[] body) {
        JsonNode request = read(body);
        Long amount = request.hasNonNull("amount") ? request.path("amount").asLong() : null;
        StripeRefund r = account.refund(id, amount, Map.of(), "requested_by_customer", null);
        return book.locked(b -> r.view());
    }

    /**
     * A refund fails late, pending or succeeded: {@code refund.updated} and {@code refund.failed}. Body
     * {@code {"failure_reason"?}} (default {@code pspsim.stripe.refund-failure-reason}).
     */
    @PostMapping("/refunds/{id}/fail")
    Map<String, Object> fail(@PathVariable String id, @RequestBody(required = false) byte[] body) {
        JsonNode request = read(body);
        String reason = request.hasNonNull("failure_reason") ? request.path("failure_reason").asString() : null;
        StripeRefund r = account.failRefund(id, reason);
        return book.locked(b -> r.view());
    }

    /**
     * Money the service never saw: a succeeded PaymentIntent, with no session and no event. Body
     * {@code {"amount", "currency"?, "attempt"?}}: minor units; {@code attempt} becomes {@code metadata[attempt]}
     * (without it the PaymentIntent is not the service's, as another integration's would be).
     */
    @PostMapping("/payment_intents/unseen")
    Map<String, Object> unseen(@RequestBody byte[] body) {
        JsonNode request = read(body);
        long amount = request.path("amount").asLong(0);
        if (amount <= 0) {
            throw StripeError.invalid("amount", "amount must be a positive integer in minor units");
        }
        Map<String, String> metadata = request.hasNonNull("attempt")
                ? Map.of("attempt", request.path("attempt").asString()) : Map.of();
        StripeIntent pi = new StripeIntent(StripeIds.next("pi_"), null, account.now(), amount,
                request.path("currency").asString("eur"), "automatic", metadata, null, null);
        pi.status = "succeeded";
        pi.amountReceived = amount;
        pi.chargeId = StripeIds.next("ch_");
        pi.chargeCreated = pi.created;
        book.add(pi);
        return book.locked(b -> pi.view());
    }

    /** Changes what a succeeded PaymentIntent received, with no event. Body {@code {"amount_received"}} (minor units). */
    @PostMapping("/payment_intents/{id}/quietly")
    Map<String, Object> quietlyIntent(@PathVariable String id, @RequestBody byte[] body) {
        long received = read(body).path("amount_received").asLong(-1);
        if (received < 0) {
            throw StripeError.invalid("amount_received", "amount_received must be an integer in minor units");
        }
        return book.locked(b -> {
            StripeIntent pi = b.intent(id).orElseThrow(() -> StripeError.noSuch("payment_intent", "intent", id));
            pi.amountReceived = received;
            return pi.view();
        });
    }

    /** A refund fails with no event (no {@code refund.failed}, no {@code refund.updated}). Body {@code {"failure_reason"?}}. */
    @PostMapping("/refunds/{id}/quietly_fail")
    Map<String, Object> quietlyFail(@PathVariable String id, @RequestBody(required = false) byte[] body) {
        JsonNode request = read(body);
        return book.locked(b -> {
            StripeRefund r = b.refund(id).orElseThrow(() -> StripeError.noSuch("refund", "refund", id));
            r.status = "failed";
            r.failureReason = request.hasNonNull("failure_reason") ? request.path("failure_reason").asString()
                    : "lost_or_stolen_card";
            return r.view();
        });
    }

    /** Stripe loses a PaymentIntent or a refund: no longer listed nor found. */
    @DeleteMapping("/objects/{id}")
    ResponseEntity<Void> forget(@PathVariable String id) {
        if (!book.forget(id)) {
            throw StripeError.noSuch("object", "id", id);
        }
        return ResponseEntity.noContent().build();
    }

    /** Forgets the Stripe objects, events and idempotency keys (also part of {@code POST /sim/reset}). */
    @PostMapping("/reset")
    ResponseEntity<Void> reset() {
        clear();
        return ResponseEntity.noContent().build();
    }

    void clear() {
        book.clear();
        events.clear();
        idempotency.clear();
    }

    @ExceptionHandler(StripeError.class)
    ResponseEntity<Map<String, Object>> refused(StripeError error) {
        return ResponseEntity.status(error.status()).body(error.body());
    }

    private JsonNode read(byte[] body) {
        if (body == null || body.length == 0) {
            return json.createObjectNode();
        }
        try {
            JsonNode node = json.readTree(body);
            if (node == null || !node.isObject()) {
                throw StripeError.invalid(null, "a JSON object is required");
            }
            return node;
        } catch (JacksonException e) {
            throw StripeError.invalid(null, "a JSON object is required");
        }
    }
}
