package com.acme.pspsim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Stripe API calls the service makes ({@code /v1/**}, key checked by {@link StripeAuthFilter}),
 * form-encoded in, JSON out, errors in Stripe's {@code {"error":{…}}} shape. Every POST goes through
 * {@link StripeIdempotency} when it carries an {@code Idempotency-Key}. Each call takes its
 * {@code stripe-*} fault plan first: latency (the key is in flight meanwhile), a refusal before acting,
 * the operation, then the answer, normal or broken; what a POST stores under its key is what it did
 * (a 500 of {@code error-after} included), not how the answer was mangled on the way.
 */
@RestController
@RequestMapping("/v1")
class StripeSurfaceController {

    private static final int MAX_LIMIT = 100;

    private final StripeAccount account;
    private final StripeBook book;
    private final StripeIdempotency idempotency;
    private final FaultBook faults;
    private final SimulatorProperties properties;
    private final JsonMapper json;

    StripeSurfaceController(StripeAccount account, StripeBook book, StripeIdempotency idempotency, FaultBook faults,
            SimulatorProperties properties, SimJson json) {
        this.account = account;
        this.book = book;
        this.idempotency = idempotency;
        this.faults = faults;
        this.properties = properties;
        this.json = json.mapper();
    }

    @PostMapping("/checkout/sessions")
    ResponseEntity<byte[]> createSession(HttpServletRequest request, HttpServletResponse response) {
        StripeForm form = form(request);
        Set<String> subjects = new LinkedHashSet<>(form.children("metadata").values());
        if (form.get("client_reference_id") != null) {
            subjects.add(form.get("client_reference_id"));
        }
        String base = properties.publicUrl() != null ? properties.publicUrl()
                : ServletUriComponentsBuilder.fromCurrentContextPath().toUriString();
        return post("stripe-session-create", "/v1/checkout/sessions", form, subjects, null, request, response,
                plan -> {
                    StripeSessionRequest r = StripeSessionRequest.from(form, account.now());
                    long hidden = plan.first(Fault.INVISIBLE).map(f -> f.delayOr(0)).orElse(0L);
                    return account.createSession(r, base, hidden).view();
                });
    }

    @GetMapping("/checkout/sessions/{id}")
    ResponseEntity<byte[]> getSession(@PathVariable String id, HttpServletRequest request,
            HttpServletResponse response) {
        StripeSession known = book.session(id).orElse(null);
        boolean expand = expands(StripeForm.parse(request.getQueryString()), "payment_intent");
        return get("stripe-session-get", known == null ? Set.of(id) : subjects(known), response,
                () -> book.locked(b -> b.session(id).map(s -> view(b, s, expand))
                        .orElseThrow(() -> StripeError.noSuch("checkout.session", "session", id))),
                true);
    }

    /** Whether {@code expand[]} names {@code field} (Stripe's expandable fields: the object in place of its id). */
    private static boolean expands(StripeForm query, String field) {
        return query.keys().stream().anyMatch(k -> k.startsWith("expand[") && field.equals(query.get(k)));
    }

    /** The session, with its PaymentIntent object in place of the id when expanded; under the book's lock. */
    private static Map<String, Object> view(StripeBook b, StripeSession s, boolean expandIntent) {
        Map<String, Object> view = s.view();
        if (expandIntent && s.paymentIntent != null) {
            b.intent(s.paymentIntent).ifPresent(intent -> view.put("payment_intent", intent.view()));
        }
        return view;
    }

    @GetMapping("/checkout/sessions")
    ResponseEntity<byte[]> listSessions(HttpServletRequest request, HttpServletResponse response) {
        StripeForm query = StripeForm.parse(request.getQueryString());
        Long limitParam = query.integer("limit");
        int limit = limitParam == null ? 10 : (int) Math.max(1, Math.min(MAX_LIMIT, limitParam));
        Range created = Range.of(query, "created");
        String after = query.get("starting_after");
        String before = query.get("ending_before");
        String intent = query.get("payment_intent");
        String status = query.get("status");
        only(query, "created", "limit", "starting_after", "ending_before", "payment_intent", "status", "customer",
                "customer_details", "payment_link", "subscription", "expand");
        return get("stripe-session-list", Set.of(), response, () -> {
            long nowMs = account.nowMillis();
            List<StripeSession> all = book.sessions(s -> (s.hiddenUntilMs == 0 || s.hiddenUntilMs <= nowMs)
                    && created.contains(s.created) && (intent == null || intent.equals(s.paymentIntent))
                    && (status == null || status.equals(s.status)));
            int from = 0;
            int to = all.size();
            if (after != null) {
                from = indexOf(all, after, "starting_after") + 1;
            } else if (before != null) {
                to = indexOf(all, before, "ending_before");
                from = Math.max(0, to - limit);
            }
            List<StripeSession> page = all.subList(from, Math.min(to, from + limit));
            boolean more = before != null ? from > 0 : from + page.size() < to;
            List<Map<String, Object>> data = new ArrayList<>();
            boolean expand = expands(query, "data.payment_intent");
            book.locked(b -> {
                page.forEach(s -> data.add(view(b, s, expand)));
                return null;
            });
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("object", "list");
            list.put("data", data);
            list.put("has_more", more);
            list.put("url", "/v1/checkout/sessions");
            return list;
        }, false);
    }

    @PostMapping("/checkout/sessions/{id}/expire")
    ResponseEntity<byte[]> expireSession(@PathVariable String id, HttpServletRequest request,
            HttpServletResponse response) {
        StripeSession known = book.session(id).orElse(null);
        return post("stripe-session-expire", "/v1/checkout/sessions/" + id + "/expire", form(request),
                known == null ? Set.of(id) : subjects(known), null, request, response,
                plan -> account.expire(id).view());
    }

    @GetMapping("/payment_intents/{id}")
    ResponseEntity<byte[]> getIntent(@PathVariable String id, HttpServletResponse response) {
        return get("stripe-intent-get", intentSubjects(id), response,
                () -> book.locked(b -> b.intent(id).map(StripeIntent::view)
                        .orElseThrow(() -> StripeError.noSuch("payment_intent", "intent", id))),
                true);
    }

    @PostMapping("/payment_intents/{id}/capture")
    ResponseEntity<byte[]> capture(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        StripeForm form = form(request);
        Long amount = form.integer("amount_to_capture");
        return post("stripe-intent-capture", "/v1/payment_intents/" + id + "/capture", form, intentSubjects(id),
                amount, request, response, plan -> {
                    only(form, "amount_to_capture", "expand", "metadata", "final_capture");
                    return account.capture(id, amount).view();
                });
    }

    @PostMapping("/payment_intents/{id}/cancel")
    ResponseEntity<byte[]> cancel(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        StripeForm form = form(request);
        return post("stripe-intent-cancel", "/v1/payment_intents/" + id + "/cancel", form, intentSubjects(id), null,
                request, response, plan -> {
                    only(form, "cancellation_reason", "expand");
                    String reason = form.get("cancellation_reason");
                    if (reason != null && !Set.of("abandoned", "duplicate", "fraudulent", "requested_by_customer")
                            .contains(reason)) {
                        throw StripeError.invalid("cancellation_reason", "Invalid cancellation_reason: " + reason);
                    }
                    return account.cancel(id, reason).view();
                });
    }

    @PostMapping("/refunds")
    ResponseEntity<byte[]> createRefund(HttpServletRequest request, HttpServletResponse response) {
        StripeForm form = form(request);
        String intent = form.get("payment_intent");
        Long amount = form.integer("amount");
        Set<String> subjects = new LinkedHashSet<>(form.children("metadata").values());
        if (intent != null) {
            subjects.addAll(intentSubjects(intent));
        }
        return post("stripe-refund-create", "/v1/refunds", form, subjects, amount, request, response, plan -> {
            only(form, "payment_intent", "amount", "metadata", "reason", "expand");
            if (intent == null || intent.isBlank()) {
                throw StripeError.invalid("payment_intent", "The simulator refunds PaymentIntents only: "
                        + "payment_intent is required.");
            }
            String reason = form.get("reason");
            if (reason != null && !Set.of("duplicate", "fraudulent", "requested_by_customer").contains(reason)) {
                throw StripeError.invalid("reason", "Invalid reason: " + reason);
            }
            return account.refund(intent, amount, form.children("metadata"), reason,
                    request.getHeader("Idempotency-Key")).view();
        });
    }

    /**
     * {@code GET /v1/refunds}: newest first, {@code payment_intent}, {@code created} (a range), {@code limit}
     * (1–100, default 10), {@code starting_after}; the service's reconcile of an ambiguous refund create lists
     * these by PaymentIntent (faults of {@code stripe-refund-get}), the books' reconciliation by {@code created}
     * (faults of {@code stripe-refund-list}).
     */
    @GetMapping("/refunds")
    ResponseEntity<byte[]> listRefunds(HttpServletRequest request, HttpServletResponse response) {
        StripeForm query = StripeForm.parse(request.getQueryString());
        only(query, "payment_intent", "limit", "starting_after", "expand", "created");
        Long limitParam = query.integer("limit");
        int limit = limitParam == null ? 10 : (int) Math.max(1, Math.min(MAX_LIMIT, limitParam));
        String intent = query.get("payment_intent");
        String after = query.get("starting_after");
        Range created = Range.of(query, "created");
        String op = intent == null ? "stripe-refund-list" : "stripe-refund-get";
        return get(op, intent == null ? Set.of() : intentSubjects(intent), response,
                () -> book.locked(b -> {
                    List<StripeRefund> all = new ArrayList<>(intent == null ? b.refunds() : b.refundsOf(intent));
                    all.removeIf(r -> !created.contains(r.created));
                    java.util.Collections.reverse(all); // the book keeps them in creation order
                    int from = 0;
                    if (after != null) {
                        from = all.stream().map(r -> r.id).toList().indexOf(after) + 1;
                        if (from == 0) {
                            throw StripeError.invalid("starting_after", "No such refund: '" + after + "'");
                        }
                    }
                    List<StripeRefund> page = all.subList(from, Math.min(all.size(), from + limit));
                    Map<String, Object> list = new LinkedHashMap<>();
                    list.put("object", "list");
                    list.put("data", page.stream().map(StripeRefund::view).toList());
                    list.put("has_more", from + page.size() < all.size());
                    list.put("url", "/v1/refunds");
                    return list;
                }), false);
    }

    /**
     * {@code GET /v1/payment_intents}: newest first, {@code created} (a range), {@code limit} (1–100, default
     * 10), {@code starting_after}; the books' reconciliation lists these (faults of {@code stripe-intent-list}).
     */
    @GetMapping("/payment_intents")
    ResponseEntity<byte[]> listIntents(HttpServletRequest request, HttpServletResponse response) {
        StripeForm query = StripeForm.parse(request.getQueryString());
        only(query, "limit", "starting_after", "expand", "created", "customer");
        Long limitParam = query.integer("limit");
        int limit = limitParam == null ? 10 : (int) Math.max(1, Math.min(MAX_LIMIT, limitParam));
        String after = query.get("starting_after");
        Range created = Range.of(query, "created");
        return get("stripe-intent-list", Set.of(), response, () -> book.locked(b -> {
            List<StripeIntent> all = new ArrayList<>(b.intents());
            all.removeIf(pi -> !created.contains(pi.created));
            java.util.Collections.reverse(all); // the book keeps them in creation order
            int from = 0;
            if (after != null) {
                from = all.stream().map(pi -> pi.id).toList().indexOf(after) + 1;
                if (from == 0) {
                    throw StripeError.invalid("starting_after", "No such payment_intent: '" + after + "'");
                }
            }
            List<StripeIntent> page = all.subList(from, Math.min(all.size(), from + limit));
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("object", "list");
            list.put("data", page.stream().map(StripeIntent::view).toList());
            list.put("has_more", from + page.size() < all.size());
            list.put("url", "/v1/payment_intents");
            return list;
        }), false);
    }

    @GetMapping("/refunds/{id}")
    ResponseEntity<byte[]> getRefund(@PathVariable String id, HttpServletResponse response) {
        StripeRefund known = book.refund(id).orElse(null);
        Set<String> subjects = new LinkedHashSet<>(List.of(id));
        if (known != null) {
            subjects.addAll(known.metadata.values());
            subjects.addAll(intentSubjects(known.paymentIntent));
        }
        return get("stripe-refund-get", subjects, response,
                () -> book.locked(b -> b.refund(id).map(StripeRefund::view)
                        .orElseThrow(() -> StripeError.noSuch("refund", "refund", id))),
                true);
    }

    @ExceptionHandler(StripeError.class)
    ResponseEntity<byte[]> refused(StripeError error) {
        return body(error.status().value(), json.writeValueAsBytes(error.body()));
    }

    /** The operation of a POST, given the call's fault plan; answers the object's view. */
    private interface Operation {
        Map<String, Object> run(CallPlan plan);
    }

    private ResponseEntity<byte[]> post(String op, String endpoint, StripeForm form, Collection<String> subjects,
            Long amount, HttpServletRequest request, HttpServletResponse response, Operation operation) {
        String key = request.getHeader("Idempotency-Key");
        String requestId = StripeIds.next("req_", 14);
        response.setHeader("Request-Id", requestId);
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("id", requestId);
        about.put("idempotency_key", key);
        request.setAttribute(StripeEventSender.REQUEST_ATTRIBUTE, about);
        Set<String> all = new LinkedHashSet<>(subjects);
        if (key != null) {
            all.add(key);
        }
        boolean sentBefore = key != null && idempotency.notePost(key) > 0;
        CallPlan plan = new CallPlan(faults.takeStripe(op, all, amount == null ? null
                : java.math.BigDecimal.valueOf(amount), null, sentBefore));
        if (key != null) {
            if (key.length() > 255) {
                throw StripeError.invalid(null, "Idempotency-Key may be at most 255 characters.");
            }
            if (plan.has(Fault.REFUSE_REPLAY)) { // refused before the key is looked at: nothing stored under it
                plan.sleepLatency();
                FaultRule rule = plan.rule();
                throw new StripeError(org.springframework.http.HttpStatus.valueOf(rule.status() == null ? 400
                        : rule.status()), "invalid_request_error",
                        rule.errorCode() == null ? "replay_refused" : rule.errorCode(), null,
                        "The simulated Stripe refuses this request sent again; nothing was done.");
            }
            StripeIdempotency.Outcome outcome = idempotency.begin(key, endpoint, form.fingerprint());
            if (outcome instanceof StripeIdempotency.Refuse refuse) {
                throw refuse.error();
            }
            if (outcome instanceof StripeIdempotency.Replay replay) {
                plan.sleepLatency();
                if (plan.has(Fault.ERROR_BEFORE)) {
                    return errorBefore(plan.rule());
                }
                response.setHeader("Idempotent-Replayed", "true");
                return answer(plan, replay.answer().status(), replay.answer().body(), response);
            }
        }
        try {
            plan.sleepLatency();
            if (plan.has(Fault.ERROR_BEFORE)) {
                release(key);
                return errorBefore(plan.rule());
            }
            Map<String, Object> result = operation.run(plan);
            int status = 200;
            byte[] body = json.writeValueAsBytes(result);
            if (plan.has(Fault.ERROR_AFTER)) { // done, and the answer Stripe stores is its 5xx
                status = plan.rule().status() == null ? 500 : plan.rule().status();
                body = apiError("An unknown error occurred. The request may or may not have been applied.");
            }
            if (key != null) {
                idempotency.complete(key, status, body);
            }
            return answer(plan, status, body, response);
        } catch (StripeError refused) { // validation: nothing stored, the key may be used again
            release(key);
            throw refused;
        } catch (RuntimeException unexpected) {
            release(key);
            throw unexpected;
        }
    }

    private ResponseEntity<byte[]> get(String op, Collection<String> subjects, HttpServletResponse response,
            Supplier<Map<String, Object>> read, boolean corruptible) {
        response.setHeader("Request-Id", StripeIds.next("req_", 14));
        CallPlan plan = new CallPlan(faults.takeStripe(op, subjects, null, null));
        plan.sleepLatency();
        if (plan.has(Fault.ERROR_BEFORE)) {
            if (plan.rule().status() != null && plan.rule().status() == 429) {
                response.setHeader("Retry-After", "1");
            }
            return errorBefore(plan.rule());
        }
        Map<String, Object> view = read.get();
        if (plan.has(Fault.CORRUPT_ANSWER)) {
            view = corruptible ? AnswerCorruption.apply(plan, view) : corruptList(plan, view);
        }
        if (plan.has(Fault.ERROR_AFTER)) {
            return answer(plan, plan.rule().status() == null ? 500 : plan.rule().status(),
                    apiError("An unknown error occurred."), response);
        }
        return answer(plan, 200, json.writeValueAsBytes(view), response);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> corruptList(CallPlan plan, Map<String, Object> list) {
        Map<String, Object> copy = new LinkedHashMap<>(list);
        copy.put("data", ((List<Map<String, Object>>) list.get("data")).stream()
                .map(item -> AnswerCorruption.apply(plan, item)).toList());
        return copy;
    }

    /** The answer-replacing faults; null when the connection was dropped. */
    private ResponseEntity<byte[]> answer(CallPlan plan, int status, byte[] body, HttpServletResponse response) {
        Fault kind = plan.answerFault().filter(f -> f != Fault.ERROR_AFTER).orElse(null);
        if (kind == null) {
            return body(status, body);
        }
        switch (kind) {
            case TIMEOUT:
                Sleep.millis(plan.rule().delayOr(properties.timeoutHold().toMillis()));
                ConnectionDrop.drop(response);
                return null;
            case RESET:
                ConnectionDrop.drop(response);
                return null;
            case HTML: // as the gateway's html fault: a 200 that does not decode
                return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body("""
                        <!DOCTYPE html>
                        <html><head><title>502 Bad Gateway</title></head>
                        <body><center><h1>502 Bad Gateway</h1></center><hr><center>edge-proxy</center></body></html>
                        """.getBytes(StandardCharsets.UTF_8));
            case TRUNCATED:
                return body(status, Arrays.copyOf(body, body.length / 2));
            default:
                throw new IllegalStateException("not an answer fault: " + kind);
        }
    }

    private ResponseEntity<byte[]> errorBefore(FaultRule rule) {
        return body(rule.status() == null ? 503 : rule.status(),
                apiError("The simulated Stripe is unavailable; nothing was done."));
    }

    private byte[] apiError(String message) {
        return json.writeValueAsBytes(StripeError.body("api_error", null, null, message));
    }

    private static ResponseEntity<byte[]> body(int status, byte[] body) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private void release(String key) {
        if (key != null) {
            idempotency.release(key);
        }
    }

    private Set<String> subjects(StripeSession s) {
        Set<String> subjects = new LinkedHashSet<>(List.of(s.id));
        if (s.clientReferenceId != null) {
            subjects.add(s.clientReferenceId);
        }
        if (s.paymentIntent != null) {
            subjects.add(s.paymentIntent);
        }
        subjects.addAll(s.metadata.values());
        return subjects;
    }

    private Set<String> intentSubjects(String intentId) {
        Set<String> subjects = new LinkedHashSet<>(List.of(intentId));
        book.intent(intentId).flatMap(pi -> book.session(pi.sessionId)).ifPresent(s -> subjects.addAll(subjects(s)));
        return subjects;
    }

    private static void only(StripeForm form, String... allowed) {
        Set<String> ok = Set.of(allowed);
        for (String root : form.roots()) {
            if (!ok.contains(root)) {
                throw StripeError.invalid(root, "Received unknown parameter: " + root);
            }
        }
    }

    private static int indexOf(List<StripeSession> all, String id, String param) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).id.equals(id)) {
                return i;
            }
        }
        throw StripeError.invalid(param, "No such checkout.session: '" + id + "'");
    }

    /** The form body of a POST (query parameters too, as Stripe takes them). */
    private static StripeForm form(HttpServletRequest request) {
        try {
            byte[] body = request.getInputStream().readAllBytes();
            String query = request.getQueryString();
            String text = new String(body, StandardCharsets.UTF_8);
            return StripeForm.parse(query == null || query.isEmpty() ? text
                    : text.isEmpty() ? query : query + "&" + text);
        } catch (IOException e) {
            throw StripeError.invalid(null, "The request body could not be read.");
        }
    }

    /** {@code created}, {@code created[gte]}, … : Stripe's range filter on a timestamp. */
    private record Range(Long eq, Long gt, Long gte, Long lt, Long lte) {

        static Range of(StripeForm q, String name) {
            return new Range(q.integer(name), q.integer(name + "[gt]"), q.integer(name + "[gte]"),
                    q.integer(name + "[lt]"), q.integer(name + "[lte]"));
        }

        boolean contains(long t) {
            return (eq == null || t == eq) && (gt == null || t > gt) && (gte == null || t >= gte)
                    && (lt == null || t < lt) && (lte == null || t <= lte);
        }
    }
}
