package com.acme.pspsim;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PSP Gateway API ({@code /api/v1/payments}), Bearer-protected by {@link SimulatorAuthFilter}.
 * Each call first takes its fault plan: latency, then a refusal before acting, then the operation,
 * then the answer (normal or broken).
 */
@RestController
@RequestMapping("/api/v1/payments")
class GatewayController {

    private final Gateway gateway;
    private final PaymentBook payments;
    private final FaultBook faults;
    private final Responder responder;
    private final JsonMapper json;
    private final Clock clock;

    GatewayController(Gateway gateway, PaymentBook payments, FaultBook faults, Responder responder, SimJson json,
            Clock clock) {
        this.gateway = gateway;
        this.payments = payments;
        this.faults = faults;
        this.responder = responder;
        this.json = json.mapper();
        this.clock = clock;
    }

    @PostMapping
    ResponseEntity<byte[]> create(@RequestBody(required = false) byte[] body, HttpServletResponse response) {
        CreateRequest request = CreateRequest.from(parse(body));
        boolean sentBefore = payments.notePost(request.referenceId()) > 0;
        CallPlan plan = faults.plan("create", request.referenceId(), request.paymentType(), request.amount(),
                sentBefore);
        plan.sleepLatency();
        if (plan.has(Fault.REFUSE_REPLAY)) {
            FaultRule rule = plan.rule();
            return responder.error(org.springframework.http.HttpStatus.valueOf(rule.status() == null ? 400
                    : rule.status()), rule.errorCode() == null ? "REPLAY_REFUSED" : rule.errorCode(),
                    "simulated refusal of a create sent again; nothing was done");
        }
        if (plan.has(Fault.ERROR_BEFORE)) {
            return responder.errorBefore(plan.first(Fault.ERROR_BEFORE).get());
        }
        String baseUrl = ServletUriComponentsBuilder.fromCurrentContextPath().toUriString();
        Payment created = gateway.create(request, plan, baseUrl);
        return responder.answer(plan, created.view(), response);
    }

    @GetMapping("/{id}")
    ResponseEntity<byte[]> get(@PathVariable String id, HttpServletResponse response) {
        Payment known = payments.get(id).orElse(null);
        CallPlan plan = faults.plan("get", known);
        plan.sleepLatency();
        if (plan.has(Fault.ERROR_BEFORE)) {
            return responder.errorBefore(plan.first(Fault.ERROR_BEFORE).get());
        }
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        return responder.answer(plan, AnswerCorruption.apply(plan, current.view()), response);
    }

    @GetMapping
    ResponseEntity<byte[]> find(@RequestParam(name = "referenceId.eq", required = false) String referenceId,
            @RequestParam(name = "createdAt.gte", required = false) String createdFrom,
            @RequestParam(name = "createdAt.lt", required = false) String createdTo,
            @RequestParam(required = false) Integer page, @RequestParam(required = false) Integer size,
            HttpServletResponse response) {
        if (referenceId == null && (createdFrom != null || createdTo != null)) {
            return list(createdFrom, createdTo, page, size, response);
        }
        if (referenceId == null || referenceId.isBlank()) {
            throw GatewayError.invalid("referenceId.eq is required");
        }
        CallPlan plan = faults.plan("find", referenceId, null, null);
        plan.sleepLatency();
        if (plan.has(Fault.ERROR_BEFORE)) {
            return responder.errorBefore(plan.first(Fault.ERROR_BEFORE).get());
        }
        List<Map<String, Object>> found = payments.findByReference(referenceId, clock.instant()).stream()
                .map(p -> AnswerCorruption.apply(plan, p.view())).toList();
        return responder.answer(plan, found, response);
    }

    /**
     * The books' listing: every payment (any type) created in {@code [createdAt.gte, createdAt.lt)}, oldest
     * first, 0-based {@code page} of {@code size} (1–100): {@code result} is {@code {items, page, hasNext}}.
     * Faults of operation {@code list} apply (a 429 also carries {@code Retry-After}).
     */
    private ResponseEntity<byte[]> list(String createdFrom, String createdTo, Integer page, Integer size,
            HttpServletResponse response) {
        java.time.Instant from = instant("createdAt.gte", createdFrom);
        java.time.Instant to = instant("createdAt.lt", createdTo);
        int n = page == null ? 0 : page;
        int limit = size == null ? 20 : size;
        if (n < 0 || limit < 1 || limit > 100) {
            throw GatewayError.invalid("page must be at least 0 and size between 1 and 100");
        }
        CallPlan plan = faults.plan("list", null, null, null);
        plan.sleepLatency();
        if (plan.has(Fault.ERROR_BEFORE)) {
            FaultRule rule = plan.first(Fault.ERROR_BEFORE).get();
            if (rule.status() != null && rule.status() == 429) {
                response.setHeader("Retry-After", "1");
            }
            return responder.errorBefore(rule);
        }
        long start = (long) n * limit;
        List<Map<String, Object>> items = payments.createdIn(from, to, start, limit).stream().map(Payment::view)
                .toList();
        Map<String, Object> result = new java.util.LinkedHashMap<>();
        result.put("items", items);
        result.put("page", n);
        result.put("hasNext", payments.createdAfter(from, to, start + items.size()));
        return responder.answer(plan, result, response);
    }

    private static java.time.Instant instant(String name, String text) {
        if (text == null || text.isBlank()) {
            throw GatewayError.invalid(name + " is required");
        }
        try {
            return java.time.OffsetDateTime.parse(text).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            throw GatewayError.invalid(name + " is not an ISO-8601 date-time");
        }
    }

    @PostMapping("/{id}/capture")
    ResponseEntity<byte[]> capture(@PathVariable String id, @RequestBody(required = false) byte[] body,
            HttpServletResponse response) {
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        JsonNode request = body == null || body.length == 0 ? null : parse(body);
        CallPlan plan = faults.plan("capture", current);
        plan.sleepLatency();
        if (plan.has(Fault.ERROR_BEFORE)) {
            return responder.errorBefore(plan.first(Fault.ERROR_BEFORE).get());
        }
        Payment captured = gateway.capture(current, request == null ? null : CreateRequest.amount(request.get("amount")));
        return responder.answer(plan, captured.view(), response);
    }

    @PostMapping("/{id}/void")
    ResponseEntity<byte[]> voidPayment(@PathVariable String id, HttpServletResponse response) {
        Payment current = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        CallPlan plan = faults.plan("void", current);
        plan.sleepLatency();
        if (plan.has(Fault.ERROR_BEFORE)) {
            return responder.errorBefore(plan.first(Fault.ERROR_BEFORE).get());
        }
        return responder.answer(plan, gateway.voidPayment(current).view(), response);
    }

    private JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw GatewayError.invalid("a JSON body is required");
        }
        try {
            return json.readTree(body);
        } catch (JacksonException e) {
            throw GatewayError.invalid("the body is not valid JSON");
        }
    }
}
