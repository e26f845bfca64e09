package com.acme.payments.psp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Public;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code POST /webhooks/psp}: raw bytes in, signature checked before any parsing, then the inbox receipt
 * (committed alone) and the apply in one transaction ({@link PspWebhookOrchestrator}). Verify, persist,
 * answer: fulfilment goes through the outbox, never inline. A payment holding a value we cannot book is a
 * payload fault: its receipt is kept open, answered {@code unknown_payment}.
 */
@RestController
class PspWebhookController {

    private static final Logger log = LoggerFactory.getLogger(PspWebhookController.class);

    private final PspSignature signature;
    private final PspWebhookOrchestrator updates;
    private final JsonMapper json;
    private final PspWebhookMetrics metrics;
    private final PayloadFaultMetrics faults;

    PspWebhookController(PspSignature signature, PspWebhookOrchestrator updates, JsonMapper json, PspWebhookMetrics metrics,
            PayloadFaultMetrics faults) {
        this.signature = signature;
        this.updates = updates;
        this.json = json;
        this.metrics = metrics;
        this.faults = faults;
    }

    @PostMapping("/webhooks/psp")
    @Public("the Signature header: an HMAC of the raw body with the PSP signing key")
    @Tag(name = "Webhooks")
    @Operation(operationId = "receivePspWebhook", summary = "The PSP's payment webhook")
    @ApiResponse(responseCode = "200", description = "Recorded")
    @ProblemAnswers({ ProblemType.INVALID_SIGNATURE, ProblemType.MALFORMED_REQUEST })
    WebhookAnswer receive(
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    description = "The PSP payment object, verified as raw bytes: send it unchanged",
                    content = @Content(schema = @Schema(implementation = PspPayment.class)))
            // raw bytes, not a typed record: the signature is over the exact body, checked before any parsing
            @RequestBody(required = false) byte[] body,
            @Parameter(required = true, description = "HMAC-SHA256 of the raw body bytes with PSP_SIGNING_KEY, "
                    + "hex or base64; checked before any parsing")
            @RequestHeader(name = "Signature", required = false) String signatureHeader) {
        if (!signature.verify(body, signatureHeader)) {
            metrics.outcome("bad_signature");
            log.warn("psp webhook refused: bad or missing signature");
            throw new BadSignature();
        }
        PaymentPayloadRules.Reading reading;
        try {
            reading = PaymentPayloadRules.read(json.readTree(body));
        } catch (JacksonException | IllegalArgumentException e) {
            metrics.outcome("unparseable");
            throw new Problems.MalformedBody("The webhook body is not a PSP payment object.");
        }
        PspPayment payment = reading.payment();
        // a value we cannot book never reaches a statement: the receipt is kept, the PSP's truth read later
        reading.fault().ifPresent(fault -> faults.fault(PayloadFaultMetrics.WEBHOOK, fault));
        WebhookOutcome outcome = reading.fault().isPresent() ? updates.keepFaulted(payment, reading.fault().get())
                : updates.receive(payment);
        metrics.outcome(outcome.value());
        log.info("psp webhook paymentId={} state={} outcome={}", PaymentPayloadRules.forLog(payment.id()),
                PaymentPayloadRules.forLog(payment.state()), outcome.value());
        return new WebhookAnswer(outcome);
    }

    /** {@code {"status": "<outcome>"}}: what became of the delivery. */
    @Schema(requiredProperties = "status")
    record WebhookAnswer(WebhookOutcome status) {
    }

    static final class BadSignature extends ApiProblem {
        BadSignature() {
            super(ProblemType.INVALID_SIGNATURE, "The Signature header is missing or does not match the body.");
        }
    }
}
