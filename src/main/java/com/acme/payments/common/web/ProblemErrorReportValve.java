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
        ProblemType named = switch (status) {
            case 400 -> ProblemType.BAD_REQUEST;
            case 404 -> ProblemType.NOT_FOUND;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 431 -> ProblemType.REQUEST_HEADER_FIELDS_TOO_LARGE;
            case 500 -> ProblemType.INTERNAL_ERROR;
            default -> null;
        };
        String type = (named != null ? named.uri() : ProblemType.forUnnamedStatus(status)).toString();
        String detail = status >= 500 ? "The request failed unexpectedly." : "The request was refused by the server.";
        try {
            response.setHeader("X-Content-Type-Options", "nosniff"); // as every answer (EdgeHeadersFilter)
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("utf-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"" + type + "\",\"title\":\"" + title + "\",\"status\":"
                        + status + ",\"detail\":\"" + detail + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response was committed meanwhile: nothing more to say
        }
    }
}
