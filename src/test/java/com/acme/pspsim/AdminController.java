package com.acme.pspsim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Inspection and fault control for tests, benchmarks and the chaos harness, and what the provider's own
 * staff do (a back-office refund) ({@code /sim/**},
 * Bearer {@code pspsim.admin-token}).
 */
@RestController
@RequestMapping("/sim")
class AdminController {

    private final PaymentBook payments;
    private final FaultBook faults;
    private final WebhookSender webhooks;
    private final SinkLog sink;
    private final StripeAdminController stripe;
    private final Gateway gateway;
    private final JsonMapper json;
    private final ObjectReader ruleReader;

    AdminController(PaymentBook payments, FaultBook faults, WebhookSender webhooks, SinkLog sink,
            StripeAdminController stripe, Gateway gateway, SimJson json) {
        this.payments = payments;
        this.faults = faults;
        this.webhooks = webhooks;
        this.sink = sink;
        this.stripe = stripe;
        this.gateway = gateway;
        this.json = json.mapper();
        // a misspelt field ("delay" for "delayMs") must not silently make a different fault
        this.ruleReader = this.json.readerFor(FaultRule.class).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /**
     * Every payment (with {@code hiddenUntil} when invisible), how many payments each referenceId created
     * ({@code createCounts}) and how many creates were POSTed with it ({@code createPosts}, lost and refused
     * ones included).
     */
    @GetMapping("/payments")
    Map<String, Object> payments(@RequestParam(required = false) String referenceId) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Payment p : payments.all()) {
            if (referenceId == null || referenceId.equals(p.referenceId())) {
                Map<String, Object> view = new LinkedHashMap<>(p.view());
                if (p.hiddenUntil() != null) {
                    view.put("hiddenUntil", p.hiddenUntil().toString());
                }
                list.add(view);
            }
        }
        Map<String, Integer> counts = payments.createCounts();
        Map<String, Integer> posts = payments.createPosts();
        if (referenceId != null) {
            counts = Map.of(referenceId, counts.getOrDefault(referenceId, 0));
            posts = Map.of(referenceId, posts.getOrDefault(referenceId, 0));
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("payments", list);
        answer.put("createCounts", counts);
        answer.put("createPosts", posts);
        return answer;
    }

    /**
     * Moves a payment to {@code state} (any state: a PSP's late truth, e.g. a PENDING refund DECLINED, or a
     * hidden payment completing), makes it visible to look-ups and announces it by webhook. Body
     * {@code {"state": …, "errorCode"?}}.
     */
    @PostMapping("/payments/{id}/state")
    Map<String, Object> move(@PathVariable String id, @RequestBody byte[] body) {
        JsonNode request = readObject(body);
        String state = request.path("state").asString("");
        if (state.isBlank()) {
            throw GatewayError.invalid("state is required");
        }
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        Payment moved = current.withState(state, java.time.Instant.now()).hiddenUntil(null);
        if (request.hasNonNull("errorCode")) {
            moved = moved.withError(request.path("errorCode").asString(), "set by the simulator's admin API");
        }
        payments.replace(moved);
        webhooks.announce(moved, false);
        return moved.view();
    }

    /**
     * A refund made in the provider's back office: a REFUND payment of this one under a reference that is not
     * the merchant's, announced by webhook (move it later with {@code …/state}, e.g. to DECLINED). Body
     * {@code {"amount"?, "referenceId"?, "state"?}}: by default what is left, under a fresh
     * {@code back-office-…}, COMPLETED.
     */
    @PostMapping("/payments/{id}/back_office_refund")
    Map<String, Object> backOfficeRefund(@PathVariable String id, @RequestBody(required = false) byte[] body) {
        JsonNode request = body == null || body.length == 0 ? json.createObjectNode() : readObject(body);
        String reference = request.hasNonNull("referenceId") ? request.path("referenceId").asString() : null;
        String state = request.hasNonNull("state") ? request.path("state").asString() : null;
        return gateway.backOfficeRefund(id, CreateRequest.amount(request.get("amount")), reference, state).view();
    }

    /**
     * Money the service never saw: a payment (default a COMPLETED DEPOSIT) created at the provider without a
     * webhook, as if made through another channel. Body {@code {"amount", "currency", "paymentType"?,
     * "state"?, "referenceId"?, "parentPaymentId"?}}.
     */
    @PostMapping("/payments/unseen")
    Map<String, Object> unseen(@RequestBody byte[] body) {
        JsonNode request = readObject(body);
        String type = request.hasNonNull("paymentType") ? request.path("paymentType").asString() : Payment.DEPOSIT;
        String state = request.hasNonNull("state") ? request.path("state").asString() : Payment.COMPLETED;
        return gateway.unseen(type, state, CreateRequest.amount(request.get("amount")),
                request.path("currency").asString("EUR"),
                request.hasNonNull("referenceId") ? request.path("referenceId").asString() : null,
                request.hasNonNull("parentPaymentId") ? request.path("parentPaymentId").asString() : null).view();
    }

    /**
     * Seeds the books for a benchmark: {@code count} COMPLETED deposits {@code <prefix><i>} under the reference
     * {@code chk_<prefix><i>} ({@code i} from {@code offset}), created {@code stepMillis} apart from {@code from},
     * announced to nobody. Body {@code {"prefix", "count", "offset"?, "from", "stepMillis", "amount"?, "currency"?}}.
     */
    @PostMapping("/payments/seed")
    Map<String, Object> seed(@RequestBody byte[] body) {
        JsonNode request = readObject(body);
        String prefix = request.path("prefix").asString("pay_seed_");
        int count = request.path("count").asInt(0);
        int offset = request.path("offset").asInt(0);
        java.time.Instant from = java.time.Instant.parse(request.path("from").asString());
        long step = request.path("stepMillis").asLong(1);
        java.math.BigDecimal amount = request.hasNonNull("amount") ? CreateRequest.amount(request.get("amount"))
                : new java.math.BigDecimal("10.00");
        String currency = request.path("currency").asString("EUR");
        for (int i = 0; i < count; i++) {
            java.time.Instant at = from.plusMillis(step * i);
            payments.add(new Payment(payments.nextSeq(), prefix + (offset + i), "chk_" + prefix + (offset + i),
                    Payment.DEPOSIT,
                    Payment.COMPLETED, amount, currency, null, null, null, null, null, null, null, null, at, at, null));
        }
        return Map.of("seeded", count);
    }

    /**
     * Changes a payment without telling anyone (no webhook): its {@code amount}, its {@code state} (a refund
     * failed without an event), or both. Body {@code {"amount"?, "state"?}}.
     */
    @PostMapping("/payments/{id}/quietly")
    Map<String, Object> quietly(@PathVariable String id, @RequestBody byte[] body) {
        JsonNode request = readObject(body);
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        Payment changed = current;
        if (request.hasNonNull("amount")) {
            changed = changed.withAmount(CreateRequest.amount(request.get("amount")));
        }
        if (request.hasNonNull("state")) {
            changed = changed.withState(request.path("state").asString(), current.updatedAt());
        }
        payments.replace(changed);
        return changed.view();
    }

    /** The provider loses a payment: no longer listed nor found (money we booked that it does not show). */
    @DeleteMapping("/payments/{id}")
    ResponseEntity<Void> forget(@PathVariable String id) {
        if (!payments.forget(id)) {
            throw GatewayError.notFound(id);
        }
        return ResponseEntity.noContent().build();
    }

    /**
     * Sends a webhook for the payment as if it were in {@code state}, without changing it: a stale or
     * replayed delivery (an earlier attempt's AUTHORIZED after the customer retried). Body {@code {"state": …}}.
     */
    @PostMapping("/payments/{id}/webhook")
    Map<String, Object> resend(@PathVariable String id, @RequestBody byte[] body) {
        String state = readObject(body).path("state").asString("");
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        Payment copy = state.isBlank() ? current : current.withState(state, current.updatedAt());
        webhooks.announce(copy, false);
        return copy.view();
    }

    private JsonNode readObject(byte[] body) {
        try {
            JsonNode node = json.readTree(body);
            if (node == null || !node.isObject()) {
                throw GatewayError.invalid("a JSON object is required");
            }
            return node;
        } catch (JacksonException e) {
            throw GatewayError.invalid("a JSON object is required");
        }
    }

    @GetMapping("/webhooks")
    List<WebhookAttempt> webhooks() {
        return webhooks.attempts();
    }

    @GetMapping("/sink")
    List<SinkLog.Received> sink() {
        return sink.all();
    }

    @GetMapping("/faults")
    List<Map<String, Object>> faults() {
        return faults.describe();
    }

    /** Adds rules: a JSON list of rules, or a single rule object. 400 when one is invalid or has an unknown field (none added). */
    @PostMapping("/faults")
    ResponseEntity<?> addFaults(@RequestBody byte[] body) {
        List<FaultRule> rules = new ArrayList<>();
        try {
            JsonNode node = json.readTree(body);
            if (node.isArray()) {
                for (JsonNode item : node) {
                    rules.add(ruleReader.readValue(item));
                }
            } else {
                rules.add(ruleReader.readValue(node));
            }
        } catch (JacksonException | IllegalArgumentException e) {
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof IllegalArgumentException)) {
                cause = cause.getCause();
            }
            throw GatewayError.invalid("invalid fault rule: " + cause.getMessage());
        }
        faults.add(rules);
        return ResponseEntity.ok(faults.describe());
    }

    @DeleteMapping("/faults")
    ResponseEntity<Void> clearFaults() {
        faults.clear();
        return ResponseEntity.noContent().build();
    }

    /**
     * Forgets payments, webhook attempts and sink records, and the Stripe surface's objects, events and keys;
     * faults go back to those configured for the run.
     */
    @PostMapping("/reset")
    ResponseEntity<Void> reset() {
        stripe.clear();
        payments.clear();
        webhooks.clear();
        sink.clear();
        faults.reset();
        return ResponseEntity.noContent().build();
    }
}
