package com.acme.payments;

import java.util.Map;

/** Development values for the features whose settings live outside checkout (outbox sinks, Stripe). */
final class DevSettings {

    private DevSettings() {
    }

    static void extra(Map<String, String> dev, String simUrl, String stripeSecret) {
    }
}
