package com.acme.payments.psp;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.psp.payload_faults{source,fault}}: PSP payment objects holding a value we cannot book,
 * by where they came from ({@code webhook}: receipt kept open; {@code answer}: a look-up left its row open)
 * and by {@link PaymentPayloadFault.Kind#slug()}; {@code source="apply", fault="constraint"} counts what
 * slipped past the rules and broke a constraint in the apply (receipt kept all the same).
 * {@code payments.inbox.unanswerable}: receipts the replay job closed because they can never apply (a payment
 * id over the limit, which the PSP cannot be asked about).
 */
@Component
public class PayloadFaultMetrics {

    static final String WEBHOOK = "webhook";
    public static final String ANSWER = "answer";

    private final MeterRegistry registry;
    private final Counter constraint;
    private final Counter unanswerable;

    PayloadFaultMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.constraint = Counter.builder("payments.psp.payload_faults")
                .description("PSP payment objects with a value that cannot be booked")
                .tag("source", "apply").tag("fault", "constraint").register(registry);
        this.unanswerable = Counter.builder("payments.inbox.unanswerable")
                .description("PSP webhook receipts closed unapplied because they can never apply (payment id over the limit)")
                .register(registry);
        for (String source : new String[] { WEBHOOK, ANSWER }) { // at zero from the start, for rate() and alerts
            for (PaymentPayloadFault.Kind kind : PaymentPayloadFault.Kind.values()) {
                counter(source, kind);
            }
        }
    }

    public void fault(String source, PaymentPayloadFault fault) {
        counter(source, fault.kind()).increment();
    }

    /** A value that passed the rules but broke a constraint in the apply: a gap in the rules, to be closed. */
    void constraint() {
        constraint.increment();
    }

    /** A receipt that can never apply, closed by the replay job. */
    void unanswerableClosed() {
        unanswerable.increment();
    }

    private Counter counter(String source, PaymentPayloadFault.Kind kind) {
        return Counter.builder("payments.psp.payload_faults")
                .description("PSP payment objects with a value that cannot be booked")
                .tag("source", source).tag("fault", kind.slug()).register(registry);
    }
}
