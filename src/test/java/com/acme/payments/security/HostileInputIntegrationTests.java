package com.acme.payments.security;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.PspFixtures;
import com.acme.payments.support.Shop;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Hostile input on every endpoint. Bodies come from jqwik generators (fixed seed, bounded
 * count), sent over a raw socket so any path or header byte goes through. Every answer must be a 4xx
 * {@code application/problem+json} without a stack trace, class name, SQL or secret; no row of the money
 * tables may change; no PSP call may be made; and the service must still answer its health check.
 */
@DisplayName("Hostile input: fuzzed bodies, bad signatures, bad credentials and hostile paths")
class HostileInputIntegrationTests extends StripeIntegrationTest {

    private static final long SEED = 20261129L;
    private static final int BODIES_PER_SLOT = 30;
    private static final String SHOP = "Bearer " + Shop.SHOP_KEY;
    private static final String ADMIN = "Bearer " + Shop.ADMIN_KEY;
    private static final List<String> TABLES = List.of("orders", "psp_attempt", "psp_refund_attempt",
            "psp_payment_operation", "psp_webhook_event", "outbox", "outbox_dedup", "processed_webhook_events",
            "billing_user", "billing_subscription", "billing_grant", "billing_purchase", "billing_invoice",
            "billing_dispute");

    record Case(String name, String method, String target, Map<String, String> headers, byte[] body) {
    }

    /** The orders and rows the hostile requests aim at. */
    record Targets(String awaiting, String awaitingToken, String otherToken, String paid, String authorized,
            String failedAttempt, long outboxId) {
    }

    @Test
    @DisplayName("every hostile request gets a 4xx problem, changes no row, calls no PSP; the service still answers")
    void everyHostileRequestGetsA4xxProblemAndChangesNothing() {
        Targets t = targets();
        List<Case> cases = new ArrayList<>();
        HostileJson.seed(SEED);
        bodyCases(t, cases);
        pspWebhookCases(cases);
        stripeWebhookCases(cases);
        billingCases(cases);
        credentialCases(t, cases);
        pathCases(t, cases);

        Map<String, String> before = snapshot();
        psp.resetAll();
        RawHttp raw = new RawHttp(port);
        List<String> failures = new ArrayList<>();
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        long started = System.nanoTime();
        for (Case c : cases) {
            RawHttp.Response response = raw.send(c.method(), c.target(), c.headers(), c.body());
            statuses.merge(response.status(), 1, Integer::sum);
            String problem = judge(c, response, t);
            if (problem != null) {
                failures.add(problem);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("hostile input: %d requests in %.2f s = %.0f requests/s; statuses %s%n", cases.size(),
                seconds, cases.size() / seconds, statuses);

        assertThat(failures).as("hostile requests answered wrongly (%d of %d)", failures.size(), cases.size())
                .isEmpty();
        assertThat(snapshot()).as("rows of the money tables").isEqualTo(before);
        // the only call allowed out: the sync of a well-formed (unknown) subscription id, e.g. 'a' from 'a;b=c'
        assertThat(psp.getAllServeEvents()).extracting(e -> e.getRequest().getMethod() + " " + e.getRequest().getUrl())
                .as("PSP or Stripe API calls caused by hostile requests")
                .allMatch(call -> call.matches("GET /v1/subscriptions/[A-Za-z0-9_-]+"));
        RawHttp.Response health = raw.send("GET", "/actuator/health", Map.of(), null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body()).contains("UP");
    }

    // ---- the cases -------------------------------------------------------------------------------

    private void bodyCases(Targets t, List<Case> cases) {
        // POST /api/orders: each slot gets hostile values while the others stay valid
        for (String slot : List.of("orderRef", "amount", "currency", "referenceId", "email")) {
            boolean freeText = slot.equals("referenceId") || slot.equals("email");
            Arbitrary<byte[]> values = freeText ? HostileJson.unstorableOrNonScalar()
                    : HostileJson.anyValue(!slot.equals("orderRef"), HostileJson.UNICODE_EDGES);
            for (int i = 0; i < BODIES_PER_SLOT; i++) {
                byte[] value = HostileJson.sample(values);
                cases.add(new Case("create order, hostile " + slot, "POST", "/api/orders", auth(SHOP),
                        orderBody(slot, value)));
            }
        }
        byte[] validOrder = orderBody("", null);
        wholeBodyCases("create order", "POST", "/api/orders", auth(SHOP), validOrder, cases);

        // checkout with the order's own token: a returnUrl that is never under an allowed prefix
        String checkout = "/api/orders/" + t.awaiting() + "/checkout";
        Arbitrary<byte[]> anyUrl = HostileJson.anyValue(true, HostileJson.UNICODE_EDGES);
        for (int i = 0; i < BODIES_PER_SLOT; i++) {
            cases.add(new Case("checkout, hostile returnUrl", "POST", checkout, auth("Bearer " + t.awaitingToken()),
                    concat("{\"returnUrl\":", HostileJson.sample(anyUrl), "}")));
        }
        wholeBodyCases("checkout", "POST", checkout, auth("Bearer " + t.awaitingToken()),
                "{\"returnUrl\":\"https://shop.test/back\"}".getBytes(StandardCharsets.UTF_8), cases);

        // refunds on a PAID order, a fresh Idempotency-Key each time
        String refunds = "/api/orders/" + t.paid() + "/refunds";
        for (String slot : List.of("amount", "currency")) {
            Arbitrary<byte[]> values = HostileJson.anyValue(true, HostileJson.UNICODE_EDGES);
            for (int i = 0; i < BODIES_PER_SLOT; i++) {
                byte[] value = HostileJson.sample(values);
                byte[] body = slot.equals("amount") ? concat("{\"amount\":", value, ",\"currency\":\"EUR\"}")
                        : concat("{\"amount\":\"1.00\",\"currency\":", value, "}");
                cases.add(new Case("refund, hostile " + slot, "POST", refunds, refundHeaders(), body));
            }
        }
        wholeBodyCases("refund", "POST", refunds, refundHeaders(),
                "{\"amount\":\"1.00\",\"currency\":\"EUR\"}".getBytes(StandardCharsets.UTF_8), cases);
        // hostile refund keys with a valid body
        for (String key : List.of("", " ", "k".repeat(256), "\u00e9t\u00e9", "a\tb", "\u202Eabc",
                "\uD83D\uDE00")) {
            Map<String, String> headers = new LinkedHashMap<>(auth(ADMIN));
            headers.put("Idempotency-Key", key);
            cases.add(new Case("refund, hostile Idempotency-Key", "POST", refunds, headers,
                    "{\"amount\":\"1.00\",\"currency\":\"EUR\"}".getBytes(StandardCharsets.UTF_8)));
        }
        cases.add(new Case("refund, no Idempotency-Key", "POST", refunds, auth(ADMIN),
                "{\"amount\":\"1.00\",\"currency\":\"EUR\"}".getBytes(StandardCharsets.UTF_8)));

        // abandon an attempt that is FAILED already: nothing may be written, whatever the body says
        String abandon = "/api/admin/attempts/" + t.failedAttempt() + "/abandon";
        for (String slot : List.of("operator", "reason")) {
            Arbitrary<byte[]> values = HostileJson.anyValue(true, HostileJson.UNICODE_EDGES);
            for (int i = 0; i < BODIES_PER_SLOT / 2; i++) {
                cases.add(new Case("abandon, hostile " + slot, "POST", abandon, auth(ADMIN),
                        concat("{\"" + slot + "\":", HostileJson.sample(values), "}")));
            }
        }
        wholeBodyCases("abandon", "POST", abandon, auth(ADMIN),
                "{\"operator\":\"ops\",\"reason\":\"confirmed\"}".getBytes(StandardCharsets.UTF_8), cases);

        // outbox listing: hostile query parameters
        Arbitrary<String> param = Arbitraries.oneOf(HostileJson.edgyText(HostileJson.UNICODE_EDGES),
                Arbitraries.of(HostileJson.NUMBER_STRINGS).filter(s -> !s.equals("0") && !s.isBlank()
                        && !s.startsWith("\u0661") && !s.startsWith("\uFF11")),
                Arbitraries.just("9".repeat(5000)));
        for (String name : List.of("state", "afterId", "limit")) {
            for (int i = 0; i < BODIES_PER_SLOT / 2; i++) {
                String value = HostileJson.sample(param);
                if (name.equals("afterId") && value.matches("-?0*[0-9]{1,18}")) {
                    continue; // a plain number is a valid cursor
                }
                cases.add(new Case("outbox list, hostile " + name, "GET",
                        "/api/admin/outbox?" + name + "=" + urlEncode(value), auth(ADMIN), null));
            }
        }
    }

    /** Truncated, not-an-object, over-limit and invalid-UTF-8 versions of a valid body. */
    private static void wholeBodyCases(String name, String method, String target, Map<String, String> headers,
            byte[] valid, List<Case> cases) {
        for (int i = 0; i < BODIES_PER_SLOT / 2; i++) {
            cases.add(new Case(name + ", truncated body", method, target, headers,
                    HostileJson.sample(HostileJson.truncated(valid))));
            cases.add(new Case(name + ", not an object", method, target, headers,
                    HostileJson.sample(HostileJson.notAnObject())));
        }
        cases.add(new Case(name + ", 2 MiB body", method, target, headers, new byte[2 * 1024 * 1024]));
    }

    private void pspWebhookCases(List<Case> cases) {
        byte[] genuine = pspPayment("pay-" + UUID.randomUUID(), "COMPLETED");
        String genuineSignature = HexFormat.of().formatHex(hmac(PspFixtures.SIGNING_KEY, genuine));

        // unsigned, badly signed and replayed signatures over fuzzed bodies
        List<String> badSignatures = List.of(
                genuineSignature,                                             // replayed onto another body
                genuineSignature.substring(0, 63),                            // truncated hex
                genuineSignature.substring(0, 32),
                genuineSignature.toUpperCase().replace('A', 'B'),            // tampered hex
                Base64.getEncoder().encodeToString(hmac("another-key", genuine)), // base64, another key
                "",                                                           // empty header
                "   ",
                "sha256=" + genuineSignature,
                "z".repeat(64),
                "A".repeat(4000));
        Arbitrary<byte[]> fuzzed = Arbitraries.oneOf(HostileJson.notAnObject(),
                HostileJson.truncated(genuine),
                HostileJson.anyValue(true, HostileJson.UNICODE_EDGES).map(v -> concat("{\"id\":", v,
                        ",\"state\":\"COMPLETED\",\"amount\":\"10.00\",\"currency\":\"EUR\"}")));
        for (int i = 0; i < BODIES_PER_SLOT * 2; i++) {
            byte[] body = HostileJson.sample(fuzzed);
            String signature = badSignatures.get(i % badSignatures.size());
            cases.add(new Case("psp webhook, bad signature '" + RawHttp.abbreviate(signature) + "'", "POST",
                    "/webhooks/psp", Map.of("Signature", signature), body));
        }
        byte[] tampered = genuine.clone();
        tampered[tampered.length / 2] ^= 1;
        cases.add(new Case("psp webhook, tampered body", "POST", "/webhooks/psp",
                Map.of("Signature", genuineSignature), tampered));
        cases.add(new Case("psp webhook, no signature header", "POST", "/webhooks/psp", Map.of(), genuine));
        cases.add(new Case("psp webhook, base64 of another key", "POST", "/webhooks/psp",
                Map.of("Signature", Base64.getEncoder().encodeToString(hmac("another-key", genuine))), genuine));
        cases.add(new Case("psp webhook, signature of an empty body", "POST", "/webhooks/psp",
                Map.of("Signature", HexFormat.of().formatHex(hmac(PspFixtures.SIGNING_KEY, new byte[0]))), genuine));

        // correctly signed, but not a payment object we can read (or text no column can hold). An amount that
        // is not a number is not here: it is a payload fault (200 unknown_payment, receipt kept open for the
        // replay), tested in PayloadFaultWebhookIntegrationTests
        Arbitrary<byte[]> nonScalar = Arbitraries.oneOf(HostileJson.deeplyNested(),
                Arbitraries.of("[]", "{}", "[\"x\"]", "{\"x\":1}").map(s -> s.getBytes(StandardCharsets.US_ASCII)),
                HostileJson.unstorableString());
        Arbitrary<byte[]> signedBodies = Arbitraries.oneOf(
                HostileJson.notAnObject(),
                HostileJson.truncated(genuine),
                nonScalar.map(v -> concat("{\"id\":", v, ",\"state\":\"COMPLETED\",\"amount\":\"10.00\",\"currency\":\"EUR\"}")),
                nonScalar.map(v -> concat("{\"id\":\"pay-x1\",\"state\":", v, ",\"amount\":\"10.00\",\"currency\":\"EUR\"}")));
        for (int i = 0; i < BODIES_PER_SLOT * 2; i++) {
            byte[] body = HostileJson.sample(signedBodies);
            cases.add(new Case("psp webhook, signed hostile body", "POST", "/webhooks/psp",
                    Map.of("Signature", HexFormat.of().formatHex(hmac(PspFixtures.SIGNING_KEY, body))), body));
        }
    }

    private void stripeWebhookCases(List<Case> cases) {
        long now = System.currentTimeMillis() / 1000;
        String eventId = StripeFixtures.id("evt");
        byte[] genuine = ("{\"id\":\"" + eventId + "\",\"object\":\"event\",\"type\":\"customer.created\",\"created\":"
                + now + ",\"data\":{\"object\":{\"id\":\"cus_1\",\"object\":\"customer\"}}}").getBytes(StandardCharsets.UTF_8);
        String v1 = HexFormat.of().formatHex(stripeMac(StripeFixtures.SECRET, now, genuine));
        byte[] reserialized = new String(genuine, StandardCharsets.UTF_8).replace(",", ", ").replace(":", ": ")
                .getBytes(StandardCharsets.UTF_8);
        List<String> badHeaders = List.of(
                stripeHeader(StripeFixtures.SECRET, now - 301, genuine),          // older than the 300 s tolerance
                stripeHeader(StripeFixtures.SECRET, now + 400, genuine),          // from the future (margin: the run takes time)
                stripeHeader(StripeFixtures.SECRET, now - 86_400 * 3, genuine),   // a replay days later
                stripeHeader(StripeFixtures.SECRET, now, reserialized),           // over a re-serialized body
                stripeHeader("whsec_another_secret", now, genuine),
                "", " ", "t=", "v1=", ",,,", "t=" + now, "v1=" + v1,                // empty and half headers
                "t=" + now + ",v1=" + "0".repeat(64) + ",v1=" + "f".repeat(64) + ",v1=" + v1.replace('a', 'b').replace('0', '1'),
                "t=" + now + ",v0=" + v1,                                        // only a v0 scheme
                "t=" + now + ",v1=" + v1.substring(0, 63),
                "t=" + now + ",v1=" + v1.toUpperCase() + "0",
                "t=abc,v1=" + v1, "t=99999999999999999999,v1=" + v1, "t=-" + now + ",v1=" + v1,
                "t=" + now + ",v1=" + Base64.getEncoder().encodeToString(stripeMac(StripeFixtures.SECRET, now, genuine)),
                "t=" + now + ",v1=" + v1 + ",t=" + (now - 1000),                  // a second, stale t
                "t=" + now + "," + "v1=x,".repeat(900));                           // over the header limit
        for (String header : badHeaders) {
            cases.add(new Case("stripe webhook, bad signature '" + RawHttp.abbreviate(header) + "'", "POST",
                    "/webhooks/stripe", Map.of("Stripe-Signature", header), genuine));
        }
        cases.add(new Case("stripe webhook, no signature header", "POST", "/webhooks/stripe", Map.of(), genuine));
        byte[] tampered = genuine.clone();
        tampered[tampered.length / 3] ^= 1;
        cases.add(new Case("stripe webhook, tampered body", "POST", "/webhooks/stripe",
                Map.of("Stripe-Signature", "t=" + now + ",v1=" + v1), tampered));

        // fuzzed bodies under a valid-looking header for another body (a replayed signature)
        Arbitrary<byte[]> fuzzed = Arbitraries.oneOf(HostileJson.notAnObject(), HostileJson.truncated(genuine),
                HostileJson.anyValue(true, HostileJson.UNICODE_EDGES).map(v -> concat("{\"id\":", v,
                        ",\"type\":\"invoice.paid\",\"data\":{\"object\":{}}}")));
        for (int i = 0; i < BODIES_PER_SLOT; i++) {
            cases.add(new Case("stripe webhook, fuzzed body, replayed signature", "POST", "/webhooks/stripe",
                    Map.of("Stripe-Signature", "t=" + now + ",v1=" + v1), HostileJson.sample(fuzzed)));
        }

        // correctly signed, but not an event
        Arbitrary<byte[]> nonScalar = Arbitraries.oneOf(HostileJson.deeplyNested(),
                Arbitraries.of("[]", "{}", "[\"x\"]", "{\"x\":1}").map(v -> v.getBytes(StandardCharsets.US_ASCII)),
                HostileJson.unstorableString(),
                Arbitraries.just(HostileJson.stringLiteral("evt_" + "a".repeat(300), false)));
        Arbitrary<byte[]> signedBodies = Arbitraries.oneOf(
                HostileJson.notAnObject(),
                HostileJson.truncated(genuine),
                // a string id that cannot be stored is a faulted event, answered 200 (StripeEventFaultIntegrationTests)
                nonScalar.filter(v -> v[0] != '"').map(v -> concat("{\"id\":", v, ",\"type\":\"invoice.paid\",\"data\":{\"object\":{}}}")),
                // an unknown type is acknowledged (200) by Stripe's rules, whatever it holds: only containers here
                nonScalar.filter(v -> v[0] != '"').map(v -> concat("{\"id\":\"evt_fz1\",\"type\":", v, ",\"data\":{\"object\":{}}}")),
                Arbitraries.of("[]", "\"x\"", "1", "null", "true").map(v -> concat(
                        "{\"id\":\"evt_fz2\",\"type\":\"invoice.paid\",\"data\":{\"object\":", v, "}}")));
        for (int i = 0; i < BODIES_PER_SLOT * 2; i++) {
            byte[] body = HostileJson.sample(signedBodies);
            cases.add(new Case("stripe webhook, signed hostile body", "POST", "/webhooks/stripe",
                    Map.of("Stripe-Signature", stripeHeader(StripeFixtures.SECRET, now, body)), body));
        }
    }

    private void billingCases(List<Case> cases) {
        List<String[]> endpoints = List.of(
                new String[] { "GET", "/api/billing/subscriptions/{}" },
                new String[] { "GET", "/api/billing/subscriptions/{}/grants" },
                new String[] { "GET", "/api/billing/users/{}" },
                new String[] { "GET", "/api/billing/purchases/{}" },
                new String[] { "POST", "/api/billing/subscriptions/{}/sync" });
        List<String> credentials = List.of("", "Bearer", "Bearer wrong-key", SHOP, "Basic dGVzdA==",
                "Bearer " + "k".repeat(10 * 1024));
        for (String[] e : endpoints) {
            for (String credential : credentials) {
                Map<String, String> headers = credential.isEmpty() ? Map.of() : auth(credential);
                cases.add(new Case("billing " + e[1] + ", credential '" + RawHttp.abbreviate(credential) + "'", e[0],
                        e[1].replace("{}", "sub_hostile1"), headers, null));
            }
            for (String segment : hostileSegments("sub_x1", "sub_x2")) {
                cases.add(new Case("billing path " + e[1] + " with '" + RawHttp.abbreviate(segment) + "'", e[0],
                        e[1].replace("{}", segment), auth(ADMIN), null));
            }
        }
    }

    private void credentialCases(Targets t, List<Case> cases) {
        String order = "/api/orders/" + t.awaiting();
        String paid = "/api/orders/" + t.paid();
        String authorized = "/api/orders/" + t.authorized();
        String tenKb = "Bearer " + "k".repeat(10 * 1024);
        List<String> nobody = List.of("", "Bearer", "Bearer ", "Basic dGVzdC1zaG9wLWtleTo=", "Bearer wrong-key",
                "Bearer test-shop-key-not", "Bearer TEST-ADMIN-KEY", "Token test-admin-key", "Bearer " + "k".repeat(600),
                "Bearer " + Base64.getEncoder().encodeToString(Shop.ADMIN_KEY.getBytes()));
        byte[] createBody = orderBody("", null);
        byte[] refundBody = "{\"amount\":\"1.00\",\"currency\":\"EUR\"}".getBytes(StandardCharsets.UTF_8);
        List<Case> endpoints = List.of(
                new Case("create order", "POST", "/api/orders", Map.of(), createBody),
                new Case("get order", "GET", order, Map.of(), null),
                new Case("checkout", "POST", order + "/checkout", Map.of(), "{}".getBytes()),
                new Case("return", "GET", order + "/return", Map.of(), null),
                new Case("refund", "POST", paid + "/refunds", Map.of("Idempotency-Key", "rk-" + UUID.randomUUID()), refundBody),
                new Case("list refunds", "GET", paid + "/refunds", Map.of(), null),
                new Case("capture", "POST", authorized + "/capture", Map.of(), null),
                new Case("void", "POST", authorized + "/void", Map.of(), null),
                new Case("abandon", "POST", "/api/admin/attempts/" + t.failedAttempt() + "/abandon", Map.of(), null),
                new Case("outbox list", "GET", "/api/admin/outbox?state=dead", Map.of(), null),
                new Case("outbox redrive", "POST", "/api/admin/outbox/" + t.outboxId() + "/redrive", Map.of(), null));
        for (Case e : endpoints) {
            List<String> credentials = new ArrayList<>(nobody);
            credentials.add(tenKb);
            boolean adminOnly = !e.target().startsWith(order) && !e.name().equals("create order");
            if (adminOnly) {
                credentials.add(SHOP);                       // a shop key on an operator endpoint: 403
                credentials.add("Bearer " + t.awaitingToken()); // a client token on an operator endpoint: 403
            } else if (e.name().equals("create order")) {
                // an admin key holds every scope, orders too: only a client token is refused here (403)
                credentials.add("Bearer " + t.awaitingToken());
            } else {
                credentials.add("Bearer " + t.otherToken()); // another order's client token: 403
            }
            for (String credential : credentials) {
                Map<String, String> headers = new LinkedHashMap<>(e.headers());
                if (!credential.isEmpty()) {
                    headers.put("Authorization", credential);
                }
                cases.add(new Case(e.name() + ", credential '" + RawHttp.abbreviate(credential) + "'", e.method(),
                        e.target(), headers, e.body()));
            }
        }
    }

    private void pathCases(Targets t, List<Case> cases) {
        List<String> segments = hostileSegments(t.awaiting(), t.paid());
        List<String[]> templates = List.of(
                new String[] { "GET", "/api/orders/{}", SHOP },
                new String[] { "POST", "/api/orders/{}/checkout", SHOP },
                new String[] { "GET", "/api/orders/{}/return", SHOP },
                new String[] { "POST", "/api/orders/{}/refunds", ADMIN },
                new String[] { "GET", "/api/orders/{}/refunds", ADMIN },
                new String[] { "POST", "/api/orders/{}/capture", ADMIN },
                new String[] { "POST", "/api/orders/{}/void", ADMIN },
                new String[] { "POST", "/api/admin/attempts/{}/abandon", ADMIN },
                new String[] { "POST", "/api/admin/refunds/{}/abandon", ADMIN },
                new String[] { "POST", "/api/admin/duplicate-charges/{}/refund", ADMIN },
                new String[] { "POST", "/api/admin/outbox/{}/redrive", ADMIN });
        for (String[] template : templates) {
            for (String segment : segments) {
                Map<String, String> headers = new LinkedHashMap<>(auth(template[2]));
                headers.put("Idempotency-Key", "rk-" + UUID.randomUUID());
                byte[] body = template[0].equals("POST") ? "{\"amount\":\"1.00\",\"currency\":\"EUR\"}".getBytes() : null;
                cases.add(new Case("path " + template[1] + " with '" + RawHttp.abbreviate(segment) + "'", template[0],
                        template[1].replace("{}", segment), headers, body));
            }
        }
        for (String traversal : List.of("/api/orders/../../actuator/env", "/api/orders/%2e%2e/%2e%2e/actuator/env",
                "/api/orders/..%2F..%2Factuator%2Fenv", "/api/admin/../orders/" + t.paid() + "/refunds/..",
                "/api/orders//refunds", "/webhooks/psp/..;/x", "/actuator/health/..%2f..%2fenv")) {
            cases.add(new Case("traversal " + traversal, "GET", traversal, auth(ADMIN), null));
        }
    }

    /** Traversal, encoded slashes and dots, bad escapes, NUL, 10 KB segments; {@code some}/{@code other} real ids. */
    private static List<String> hostileSegments(String some, String other) {
        return List.of("..", "%2e%2e", "%2E%2E", ".%2e", "..%2f..%2factuator%2fenv", "%2e%2e%2f",
                "a%2Fb", "a%5Cb", "..\\..", "%252e%252e", "%c0%ae%c0%ae", "a%00b", "%00", "%", "%zz", "a;b=c",
                "%20", "%E2%80%AE" + "fer", "%F0%9F%98%80", "%ED%A0%80", "*", "~root", "ord-1%23frag",
                "a".repeat(10 * 1024), "%41".repeat(3 * 1024), some + "%2F..%2F" + other,
                "..;", "%2e%2e;x=1", "." , "ord-" + "%0d%0aX-Injected:%201");
    }

    // ---- judging an answer ------------------------------------------------------------------------

    /** Null when the answer is right, else a line saying what is wrong. */
    private String judge(Case c, RawHttp.Response response, Targets t) {
        String sent = c.body() == null ? "" : " body " + RawHttp.abbreviate(printable(c.body())) + " headers "
                + RawHttp.abbreviate(c.headers().toString());
        String what = c.name() + " " + c.method() + " " + RawHttp.abbreviate(c.target()) + sent + " -> " + response.status()
                + " " + response.contentType() + " " + RawHttp.abbreviate(response.body().replace('\n', ' '));
        if (response.status() < 400 || response.status() > 499) {
            return "not a 4xx: " + what;
        }
        if (!response.contentType().startsWith("application/problem+json")) {
            return "not a problem: " + what;
        }
        String text = response.body() + " " + response.headers();
        for (String leak : leaks(c, t)) {
            if (text.contains(leak)) {
                return "leaks '" + RawHttp.abbreviate(leak) + "': " + what;
            }
        }
        if (text.matches("(?s).*\\b(java|javax|jakarta|tools\\.jackson|org\\.springframework|org\\.postgresql|org\\.apache|com\\.acme)\\.[a-zA-Z.]+.*")) {
            return "leaks a class name: " + what;
        }
        return null;
    }

    private static String printable(byte[] body) {
        StringBuilder out = new StringBuilder();
        for (char ch : new String(body, StandardCharsets.UTF_8).toCharArray()) {
            out.append(ch >= 0x20 && ch < 0x7f ? String.valueOf(ch) : String.format("\\u%04x", (int) ch));
        }
        return out.toString();
    }

    private static List<String> leaks(Case c, Targets t) {
        List<String> leaks = new ArrayList<>(List.of(Shop.SHOP_KEY, "second-shop-key", Shop.ADMIN_KEY, "test-psp-key", StripeFixtures.SECRET, "sk_test_key",
                PspFixtures.SIGNING_KEY, t.awaitingToken(), t.otherToken(), "Exception", "\tat ", "SQL", "select ",
                "SELECT ", "INSERT ", "UPDATE ", "psp_attempt", "orders.", "client_token", "Hikari", "Caused by"));
        c.headers().forEach((name, value) -> {
            if ((name.equals("Authorization") || name.equals("Signature") || name.equals("Stripe-Signature"))
                    && value.length() >= 8) {
                leaks.add(value);
            }
        });
        return leaks;
    }

    // ---- fixtures ---------------------------------------------------------------------------------

    private Targets targets() {
        Shop shop = new Shop(http());
        var awaiting = shop.createOrder("10.00", "EUR");
        var other = shop.createOrder("11.00", "EUR");

        var paid = shop.createOrder("20.00", "EUR");
        PaidOrders.checkout(http().bearer(Shop.SHOP_KEY), psp, jdbc, paid.orderRef(), "COMPLETED", "20.00");
        var authorized = shop.createOrder("30.00", "EUR");
        PaidOrders.checkout(http().bearer(Shop.SHOP_KEY), psp, jdbc, authorized.orderRef(), "AUTHORIZED", "30.00");

        var refused = shop.createOrder("40.00", "EUR");
        psp.resetAll();
        psp.stubFor(createCall().willReturn(status(400, "{\"errorCode\":\"invalid_amount\"}")));
        int refusal = shop.checkout(refused.orderRef()).status();
        if (refusal != 502) { // a slow machine timed the call out: the attempt is UNKNOWN; an operator closes it
            assertThat(refusal).isEqualTo(409);
            String open = PaidOrders.openAttempt(jdbc, refused.orderRef());
            assertThat(http().bearer(Shop.ADMIN_KEY).post("/api/admin/attempts/" + open + "/abandon", "{}").status())
                    .isEqualTo(200);
        }
        psp.resetAll();

        String failedAttempt = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id
                WHERE o.order_ref = :ref AND a.state = 'FAILED'""").param("ref", refused.orderRef())
                .query(String.class).single();
        long outboxId = jdbc.sql("SELECT max(id) FROM outbox").query(Long.class).single();
        assertThat(jdbc.sql("SELECT status FROM orders WHERE order_ref = :ref").param("ref", paid.orderRef())
                .query(String.class).single()).isEqualTo("PAID");
        assertThat(jdbc.sql("SELECT status FROM orders WHERE order_ref = :ref").param("ref", authorized.orderRef())
                .query(String.class).single()).isEqualTo("AUTHORIZED");
        return new Targets(awaiting.orderRef(), awaiting.clientToken(), other.clientToken(), paid.orderRef(),
                authorized.orderRef(), failedAttempt, outboxId);
    }

    /** Row count and a digest of every row, per table (the sums of the money columns for orders). */
    private Map<String, String> snapshot() {
        Map<String, String> snapshot = new LinkedHashMap<>();
        for (String table : TABLES) {
            snapshot.put(table, jdbc.sql("SELECT count(*) || ' rows, digest ' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '-') FROM "
                    + table + " t").query(String.class).single());
        }
        snapshot.put("orders sums", jdbc.sql("""
                SELECT coalesce(sum(amount), 0) || ' / ' || coalesce(sum(paid_amount), 0) || ' / '
                       || coalesce(sum(refunded_amount), 0) FROM orders""").query(String.class).single());
        return snapshot;
    }

    private static byte[] orderBody(String slot, byte[] value) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("orderRef", HostileJson.stringLiteral(Shop.newOrderRef(), true));
        fields.put("amount", "\"10.00\"".getBytes());
        fields.put("currency", "\"EUR\"".getBytes());
        fields.put("referenceId", "\"cust-1\"".getBytes());
        fields.put("email", "\"a@b.test\"".getBytes());
        if (value != null) {
            fields.put(slot, value);
        }
        return concat("{\"orderRef\":", fields.get("orderRef"), ",\"amount\":", fields.get("amount"),
                ",\"currency\":", fields.get("currency"), ",\"customer\":{\"referenceId\":", fields.get("referenceId"),
                ",\"email\":", fields.get("email"), "}}");
    }

    private static byte[] pspPayment(String id, String state) {
        return ("{\"id\":\"" + id + "\",\"referenceId\":\"chk_" + UUID.randomUUID() + "\",\"paymentType\":\"DEPOSIT\","
                + "\"state\":\"" + state + "\",\"amount\":\"10.00\",\"currency\":\"EUR\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] stripeMac(String secret, long timestamp, byte[] body) {
        return hmac(secret, concat(timestamp + ".", body));
    }

    private static String stripeHeader(String secret, long timestamp, byte[] body) {
        return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(stripeMac(secret, timestamp, body));
    }

    private static Map<String, String> auth(String authorization) {
        return Map.of("Authorization", authorization);
    }

    private static Map<String, String> refundHeaders() {
        Map<String, String> headers = new LinkedHashMap<>(auth(ADMIN));
        headers.put("Idempotency-Key", "rk-" + UUID.randomUUID());
        return headers;
    }

    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof byte[] bytes ? bytes : part.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static String urlEncode(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static byte[] hmac(String key, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
