package com.acme.payments.chaos;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's keys, one per scope, issued through {@code POST /api/admin/keys} once the instances are up: the
 * workload and the invariants call with the key of the scope each call needs ({@code orders} for the shop,
 * {@code payments} for refunds, capture and void, {@code operator} for the exits, {@code read} for every read of
 * a listing), never with the configured keys, which only issue these. Every scoped call's answer is watched: a
 * {@code 401} or a {@code 403} to a scoped key means the access rules refused what the contract allows.
 */
final class ScopedKeys {

    record Keys(String orders, String payments, String operator, String read) {
    }

    private static volatile Keys keys;
    private static final List<String> REFUSALS = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final java.util.concurrent.atomic.AtomicLong CALLS = new java.util.concurrent.atomic.AtomicLong();

    private ScopedKeys() {
    }

    /** Issues the four keys on one instance and waits until every instance takes each of them. */
    static void issue(ServiceClient client) throws InterruptedException {
        Map<String, String> issued = new LinkedHashMap<>();
        for (String scope : List.of("orders", "payments", "operator", "read")) {
            ServiceClient.Answer a = client.call(0, "POST", "/api/admin/keys", ServiceClient.ADMIN_KEY, null,
                    "{\"name\":\"chaos-" + scope + "\",\"scopes\":[\"" + scope + "\"]}");
            if (a.status() != 201) {
                throw new IllegalStateException("issuing the " + scope + " key answered " + a.status() + ": " + a.body());
            }
            issued.put(scope, a.json().path("key").asString());
        }
        REFUSALS.clear();
        CALLS.set(0);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int i = 0; i < client.instances(); i++) {
            // a key issued on one instance may take the others' refresh period to be known there
            while (client.call(i, "GET", "/api/orders?limit=1", issued.get("read"), null, null).status() != 200) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("instance " + i + " never took the issued read key");
                }
                Thread.sleep(200);
            }
        }
        keys = new Keys(issued.get("orders"), issued.get("payments"), issued.get("operator"), issued.get("read"));
    }

    static void clear() {
        keys = null;
    }

    /**
     * The bearer a call goes out with: the scoped key its path needs in place of the configured key the call
     * site names (the call sites keep naming "the shop" or "the admin"); anything else unchanged.
     */
    static String bearerFor(String method, String path, String bearer) {
        Keys k = keys;
        if (k == null || !(ServiceClient.SHOP_KEY.equals(bearer) || ServiceClient.ADMIN_KEY.equals(bearer))) {
            return bearer;
        }
        boolean read = "GET".equals(method);
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (bare.startsWith("/api/admin/") || bare.startsWith("/api/billing/")) {
            return read ? k.read() : k.operator();
        }
        if (bare.matches("/api/orders/[^/]+/(refunds|capture|void)")) {
            return read ? k.read() : k.payments();
        }
        if (bare.startsWith("/api/orders")) {
            return k.orders();
        }
        return bearer;
    }

    /** Notes a scoped call's answer: a 401 or a 403 is a refusal the contract does not allow. */
    static void answered(String method, String path, String bearer, ServiceClient.Answer answer) {
        Keys k = keys;
        if (k == null || !List.of(k.orders(), k.payments(), k.operator(), k.read()).contains(bearer)) {
            return;
        }
        CALLS.incrementAndGet();
        if (answer.status() == 401 || answer.status() == 403) {
            REFUSALS.add(method + " " + path + " → " + answer.status() + " " + answer.problem());
        }
    }

    /** The invariant: every call made with a scoped key was let through by the access rules. */
    static Invariants.Check check() {
        Invariants.Check check = new Invariants.Check("every call with a scoped key passed the access rules", 100);
        check.checked = CALLS.get();
        check.violations.addAll(REFUSALS);
        return check;
    }
}
