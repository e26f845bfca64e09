package com.acme.payments.bench;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import com.acme.payments.psp.stripe.StripePaymentEvents;
import com.acme.payments.stripe.StripeFixtures;

import tools.jackson.databind.JsonNode;

/**
 * The provider the benchmark's instances check out with ({@code -Dbench.provider=gateway|stripe}): the
 * simulator's surface it uses, the settings it needs, and the webhook that pays a checkout, signed as that
 * provider signs it. Gateway: a signed {@code COMPLETED} payment at {@code /webhooks/psp}; Stripe: a signed
 * {@code checkout.session.completed} (paid) at {@code /webhooks/stripe}, the event Stripe sends first.
 */
enum BenchProvider {

    GATEWAY {
        @Override
        List<String> serviceSettings(String simUrl) {
            return List.of();
        }

        @Override
        Hook hook(JsonNode checkout, String orderRef) {
            String redirect = checkout.path("redirectUrl").asString();
            String body = ServiceBenchmark.payment(redirect.substring(redirect.lastIndexOf('/') + 1),
                    checkout.path("attempt").path("referenceId").asString());
            String signature = ServiceBenchmark.sign(body);
            return new Hook("/webhooks/psp", "Signature", body, () -> signature);
        }

        @Override
        boolean applied(String answer) {
            return answer.contains("applied");
        }
    },

    STRIPE {
        @Override
        List<String> serviceSettings(String simUrl) {
            // the test profile's stripe.api-key and stripe.webhook-secret (the simulator is given the same)
            return List.of("payments.psp.provider=stripe", "stripe.api-base=" + simUrl);
        }

        @Override
        Hook hook(JsonNode checkout, String orderRef) {
            String redirect = checkout.path("redirectUrl").asString();
            String session = redirect.substring(redirect.lastIndexOf('/') + 1);
            String intent = "pi_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
            String body = StripeFixtures.event("evt_" + UUID.randomUUID().toString().replace("-", ""),
                    "checkout.session.completed", StripePaymentEvents.session(session, intent,
                            checkout.path("attempt").path("referenceId").asString(), orderRef, "complete", "paid", 1000));
            // signed when sent: Stripe-Signature carries a timestamp the endpoint checks against its tolerance
            return new Hook("/webhooks/stripe", "Stripe-Signature", body, () -> StripeFixtures.signature(body,
                    System.currentTimeMillis() / 1000, ServiceBenchmark.STRIPE_SECRET));
        }

        @Override
        boolean applied(String answer) {
            return answer.equals("{\"received\":true}");
        }
    };

    static BenchProvider configured() {
        return valueOf(System.getProperty("bench.provider", "gateway").toUpperCase(java.util.Locale.ROOT));
    }

    /** The simulator's settings for this provider's surface (the Stripe surface's key and secret). */
    static Map<String, String> simulatorSettings() {
        return Map.of("pspsim.stripe.api-key", "sk_test_key", "pspsim.stripe.webhook-secret",
                ServiceBenchmark.STRIPE_SECRET);
    }

    /** What the instances need beyond the Gateway's settings, which every run passes. */
    abstract List<String> serviceSettings(String simUrl);

    /** The webhook that pays the order this checkout answer belongs to. */
    abstract Hook hook(JsonNode checkout, String orderRef);

    /** Whether the endpoint's answer says the hook was applied (not a duplicate, not refused). */
    abstract boolean applied(String answer);

    /** Whether the answer says the delivery was a duplicate of one already applied. */
    boolean duplicate(String answer) {
        return answer.contains("duplicate");
    }

    /** One webhook: where it goes, the signature header, the body, and the signature made when it is posted. */
    record Hook(String path, String header, String body, Supplier<String> signature) {
        HttpResponse<String> post(String baseUrl) throws Exception {
            return Client.post(baseUrl + path, body, header, signature.get());
        }
    }
}
