package com.acme.pspsim;

import java.nio.charset.StandardCharsets;
import java.time.Clock;


import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A stand-in for the service's outbound receivers (notifications, conversions, fulfilment) and the
 * shop's return page: it records and logs what arrives and answers 200, unless a {@code sink}
 * fault says otherwise (latency, an error status, a dropped connection). A sink configured with a secret
 * ({@code pspsim.sink-secrets.<sink>}) verifies {@code Payments-Signature} first and answers 400 without
 * recording when it is missing or wrong; a delivery carrying {@code webhook-id} (the shop's events) is checked
 * as Standard Webhooks instead and recorded under that id.
 */
@RestController
class SinkController {

    private static final Logger log = LoggerFactory.getLogger(SinkController.class);

    private final SinkLog sink;
    private final FaultBook faults;
    private final Responder responder;
    private final Clock clock;
    private final SimulatorProperties properties;

    SinkController(SinkLog sink, FaultBook faults, Responder responder, Clock clock, SimulatorProperties properties) {
        this.sink = sink;
        this.faults = faults;
        this.responder = responder;
        this.clock = clock;
        this.properties = properties;
    }

    @PostMapping("/sink/**")
    ResponseEntity<byte[]> receive(@RequestBody(required = false) byte[] body, HttpServletRequest request,
            HttpServletResponse response) {
        CallPlan plan = faults.plan("sink", null, null, null);
        plan.sleepLatency();
        if (plan.has(Fault.RESET)) {
            ConnectionDrop.drop(response);
            return null;
        }
        if (plan.has(Fault.ERROR_BEFORE)) {
            return responder.errorBefore(plan.first(Fault.ERROR_BEFORE).get());
        }
        byte[] raw = body == null ? new byte[0] : body;
        String secret = properties.sinkSecrets().get(sinkName(request.getRequestURI()));
        String webhookId = request.getHeader(StandardWebhookSignatures.ID);
        if (secret != null) {
            String problem = webhookId != null
                    ? StandardWebhookSignatures.problem(webhookId, request.getHeader(StandardWebhookSignatures.TIMESTAMP),
                            request.getHeader(StandardWebhookSignatures.SIGNATURE), raw, secret, clock.instant(),
                            properties.sinkSignatureTolerance())
                    : SinkSignatures.problem(request.getHeader(SinkSignatures.HEADER), raw, secret,
                            clock.instant(), properties.sinkSignatureTolerance());
            if (problem != null) {
                log.warn("sink refused path={} idempotencyKey={}: {}", request.getRequestURI(),
                        request.getHeader("Idempotency-Key"), problem);
                return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON)
                        .body("{\"error\":\"invalid-signature\"}".getBytes(StandardCharsets.UTF_8));
            }
        }
        String text = new String(raw, StandardCharsets.UTF_8);
        String key = webhookId != null ? webhookId : request.getHeader("Idempotency-Key");
        SinkLog.Received r = sink.add("POST", request.getRequestURI(), key,
                request.getContentType(), text, clock.instant(), secret != null);
        log.info("sink received seq={} path={} idempotencyKey={} body={}", r.seq(), r.path(), r.idempotencyKey(),
                text);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(("{\"received\":true,\"seq\":" + r.seq() + "}").getBytes(StandardCharsets.UTF_8));
    }

    /** {@code /sink/notify/x} → {@code notify}. */
    private static String sinkName(String uri) {
        String rest = uri.substring(Math.min(uri.length(), "/sink/".length()));
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    /** A landing page for browsers sent back to the "shop" (e.g. {@code SHOP_RETURN_URL}). */
    @GetMapping(path = "/sink/**", produces = MediaType.TEXT_HTML_VALUE)
    String landing(HttpServletRequest request) {
        sink.add("GET", request.getRequestURI() + (request.getQueryString() == null ? "" : "?" + request.getQueryString()),
                null, null, "", clock.instant(), false);
        return "<!DOCTYPE html><html><body><p>Back at the shop.</p></body></html>";
    }

}
