package com.acme.payments.common.web;

import java.io.IOException;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Refuses bodies over the limit (1 MiB) on every endpoint, webhooks included: a declared
 * Content-Length is refused before anything is read, a chunked body is cut off as it streams.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class BodySizeLimitFilter extends OncePerRequestFilter {

    private final long limit;

    BodySizeLimitFilter(Limits limits) {
        this.limit = limits.maxBodySize().toBytes();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > limit) {
            response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
            response.setContentType("application/problem+json");
            response.getWriter().write("""
                    {"type":"%s","title":"%s","status":413,\
                    "detail":"Request bodies are limited to %d bytes."}""".formatted(ProblemType.PAYLOAD_TOO_LARGE.uri(),
                    ProblemType.PAYLOAD_TOO_LARGE.title(), limit));
            return;
        }
        chain.doFilter(new LimitedRequest(request, limit), response);
    }

    static boolean causedByOversizedBody(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeIo) {
                return true;
            }
        }
        return false;
    }

    /** The 413 problem for a body found too large while streaming. */
    static final class BodyTooLarge extends ApiProblem {
        BodyTooLarge() {
            super(ProblemType.PAYLOAD_TOO_LARGE, "Request bodies are limited to 1 MiB.");
        }
    }

    private static final class BodyTooLargeIo extends IOException {
        BodyTooLargeIo() {
            super("request body exceeds the limit");
        }
    }

    /** Counts bytes as they are read and fails the read past the limit. */
    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private final long limit;
        private ServletInputStream stream;

        LimitedRequest(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long count;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0 && ++count > limit) {
                            throw new BodyTooLargeIo();
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = in.read(buf, off, len);
                        if (n > 0 && (count += n) > limit) {
                            throw new BodyTooLargeIo();
                        }
                        return n;
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }

    /**
     * Request limits ({@code payments.web.*}).
     *
     * @param maxBodySize largest request body accepted, webhooks included; larger answers 413 (Spring's MB
     *        is 1024 * 1024 bytes, so the default is 1 MiB)
     */
    @ConfigurationProperties("payments.web")
    record Limits(@DefaultValue("1MB") DataSize maxBodySize) {
    }
}
