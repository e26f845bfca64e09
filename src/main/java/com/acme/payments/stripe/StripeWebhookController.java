package com.acme.payments.stripe;

import java.time.Clock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Public;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code POST /webhooks/stripe}. Reads the raw bytes, verifies the signature before any parsing, then
 * hands the event to the orchestrator. The answers are Stripe's contract: 2xx settles a delivery,
 * anything else makes Stripe retry it for up to three days.
 */
@RestController
class StripeWebhookController {

    private static final Logger log = LoggerFactory.getLogger(StripeWebhookController.class);

    private final StripeProperties properties;
    private final StripeWebhookOrchestrator orchestrator;
    private final StripeMetrics metrics;
    private final JsonMapper json;
    private final Clock clock;

    StripeWebhookController(StripeProperties properties, StripeWebhookOrchestrator orchestrator,
            StripeMetrics metrics, JsonMapper json, Clock clock) {
        this.properties = properties;
        this.orchestrator = orchestrator;
        this.metrics = metrics;
        this.json = json;
        this.clock = clock;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnWhenUnconfigured() {
        if (!properties.webhookConfigured()) {
            log.warn("STRIPE_WEBHOOK_SECRET is not set: POST /webhooks/stripe answers 500 until it is");
        }
        if (!properties.apiConfigured()) {
            log.warn("STRIPE_API_KEY is not set: billing reconciliation (sync and nightly) cannot run");
        }
    }

    @PostMapping("/webhooks/stripe")
    @Public("the Stripe-Signature header: Stripe's HMAC of the timestamp and raw body")
    @Tag(name = "Webhooks")
    @Operation(operationId = "receiveStripeWebhook", summary = "Stripe events: billing and, with Stripe as the PSP, payments (docs/billing.md, docs/providers.md)")
    @ProblemAnswers({ ProblemType.STRIPE_SIGNATURE_INVALID, ProblemType.STRIPE_EVENT_MALFORMED,
            ProblemType.STRIPE_WEBHOOK_NOT_CONFIGURED, ProblemType.STRIPE_EVENT_FAILED,
            ProblemType.STRIPE_EVENT_IN_FLIGHT, ProblemType.DATABASE_UNAVAILABLE })
    StripeAnswer receive(
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    description = "A Stripe event, verified as raw bytes: send it unchanged",
                    content = @Content(schema = @Schema(type = "object")))
            // raw bytes, not a typed record: the signature is over the exact body, checked before any parsing
            @RequestBody(required = false) byte[] body,
            @Parameter(required = true, description = "t=<timestamp>,v1=<HMAC-SHA256> with STRIPE_WEBHOOK_SECRET, "
                    + "tolerance 300 s; checked over the raw body")
            @RequestHeader(name = "Stripe-Signature", required = false) String signature) {
        if (!properties.webhookConfigured()) {
            metrics.event(null, "not_configured");
            log.error("stripe webhook refused: STRIPE_WEBHOOK_SECRET is not set");
            throw new StripeProblems.WebhookNotConfigured();
        }
        if (!StripeSignature.verify(body, signature, properties.webhookSecret(), properties.signatureTolerance(),
                clock)) {
            metrics.event(null, "signature_invalid");
            log.warn("stripe webhook refused: missing, invalid or stale signature");
            throw new StripeProblems.SignatureInvalid();
        }
        StripeEvent event = parse(body);
        StripeWebhookOrchestrator.Outcome outcome = orchestrator.receive(event);
        return new StripeAnswer(true, outcome == StripeWebhookOrchestrator.Outcome.DUPLICATE ? Boolean.TRUE : null);
    }

    /** Stripe reads only the status; {@code duplicate} says a redelivery was recognised. */
    record StripeAnswer(boolean received, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean duplicate) {
    }

    private StripeEvent parse(byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JacksonException e) {
            throw malformed();
        }
        String id = StripeEvent.text(root, "id");
        String type = StripeEvent.text(root, "type");
        JsonNode object = StripeEvent.at(root, "data", "object");
        Long created = StripeEvent.number(root, "created");
        // an id or type that cannot be stored is not malformed: an unhandled type is acknowledged, a handled
        // one is kept as faulted (StripeEventRules), both 200, as a redelivery would bring the same bytes
        if (id == null || id.isBlank() || type == null || type.isBlank() || object == null || !object.isObject()) {
            throw malformed();
        }
        return new StripeEvent(id, type, created == null ? 0 : created, object);
    }

    private StripeProblems.EventMalformed malformed() {
        metrics.event(null, "malformed");
        log.warn("stripe webhook refused: signed body is not an event");
        return new StripeProblems.EventMalformed();
    }
}
