package com.acme.payments.common.web;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's own error answers (a request refused before Spring sees it: an encoded slash or backslash, an
 * invalid percent escape, {@code %00}, a request line or header over the size limit) as RFC 9457
 * problems instead of Tomcat's HTML page. Never includes the exception, its message or the request.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String slug = switch (status) {
            case 400 -> "bad-request";
            case 404 -> "not-found";
            case 413 -> "payload-too-large";
            case 431 -> "request-header-fields-too-large";
            case 500 -> "internal-error";
            default -> "http-" + status;
        };
        String detail = status >= 500 ? "The request failed unexpectedly." : "The request was refused by the server.";
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("utf-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"" + ProblemTypes.BASE + slug + "\",\"title\":\"" + title + "\",\"status\":"
                        + status + ",\"detail\":\"" + detail + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response was committed meanwhile: nothing more to say
        }
    }
}
