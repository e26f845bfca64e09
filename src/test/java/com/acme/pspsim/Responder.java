package com.acme.pspsim;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the provider's answers: the {@code {timestamp, status, result}} envelope, error bodies with
 * {@code errorCode}/{@code errorMessage}, and the broken answers of the answer-replacing faults.
 * Bodies are byte arrays so every answer carries a Content-Length and is complete once flushed.
 */
@Component
class Responder {

    private final JsonMapper json;
    private final Clock clock;
    private final SimulatorProperties properties;

    Responder(SimJson json, Clock clock, SimulatorProperties properties) {
        this.json = json.mapper();
        this.clock = clock;
        this.properties = properties;
    }

    /** The normal answer, unless the plan replaces it; null when the connection was dropped. */
    ResponseEntity<byte[]> answer(CallPlan plan, Object result, HttpServletResponse response) {
        byte[] body = envelope(result);
        Fault kind = plan.answerFault().orElse(null);
        if (kind == null) {
            return jsonBody(HttpStatus.OK, body);
        }
        FaultRule fault = plan.rule();
        switch (kind) {
            case TIMEOUT:
                Sleep.millis(fault.delayOr(properties.timeoutHold().toMillis()));
                ConnectionDrop.drop(response);
                return null;
            case RESET:
                ConnectionDrop.drop(response);
                return null;
            case ERROR_AFTER:
                return error(status(fault, 500), "INTERNAL_ERROR", "simulated failure after the operation");
            case HTML:
                return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(proxyPage());
            case TRUNCATED:
                return jsonBody(HttpStatus.OK, Arrays.copyOf(body, body.length / 2));
            default:
                throw new IllegalStateException("not an answer fault: " + kind);
        }
    }

    /** The answer of an {@code ERROR_BEFORE} fault: nothing was done. */
    ResponseEntity<byte[]> errorBefore(FaultRule fault) {
        return error(status(fault, 503), "SERVICE_UNAVAILABLE", "simulated failure before the operation");
    }

    ResponseEntity<byte[]> error(HttpStatus status, String errorCode, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("timestamp", clock.instant().toString());
        body.put("status", status.value());
        body.put("errorCode", errorCode);
        body.put("errorMessage", message);
        return jsonBody(status, json.writeValueAsBytes(body));
    }

    byte[] envelope(Object result) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("timestamp", clock.instant().toString());
        body.put("status", 200);
        body.put("result", result);
        return json.writeValueAsBytes(body);
    }

    private static HttpStatus status(FaultRule fault, int fallback) {
        return HttpStatus.valueOf(fault.status() == null ? fallback : fault.status());
    }

    private static ResponseEntity<byte[]> jsonBody(HttpStatus status, byte[] body) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private static byte[] proxyPage() {
        return """
                <!DOCTYPE html>
                <html><head><title>502 Bad Gateway</title></head>
                <body><center><h1>502 Bad Gateway</h1></center><hr><center>edge-proxy</center></body></html>
                """.getBytes(StandardCharsets.UTF_8);
    }
}
