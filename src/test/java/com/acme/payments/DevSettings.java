package com.acme.payments;

import java.util.Map;

/** Development values for the features whose settings live outside checkout (outbox sinks, Stripe). */
final class DevSettings {

    private DevSettings() {
    }

    static void extra(Map<String, String> dev, String simUrl, String stripeSecret) {
        dev.put("payments.outbox.sinks.notify-url", simUrl + "/sink/notify");
        dev.put("payments.outbox.sinks.conversion-url", simUrl + "/sink/conversion");
        dev.put("payments.outbox.sinks.fulfilment-url", simUrl + "/sink/fulfilment");
        dev.put("stripe.webhook-secret", stripeSecret);
    }
}
