package com.acme.payments.common.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Refuses a request whose shape is broken before anything reads it — no credential check, controller or
 * statement sees it, so nothing it carries can become a 500 or reach PostgreSQL: a path or query that does
 * not percent-decode to UTF-8 or holds a NUL or a lone surrogate, a header value with a control character,
 * a multipart type without a boundary (400); and, on every endpoint but the webhooks and the console, a body
 * that is not declared JSON in UTF-8 (415: the API reads nothing else; the console only its forms). The
 * webhooks read their raw bytes whatever the Content-Type, as the providers send it, and are only held to
 * the shape checks. TRACE, which Tomcat
 * lets through ({@link TomcatProblems}) so that its 405 is a problem too, is refused here for every path.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 7) // after EdgeHeadersFilter and ShopOriginsCors: refusals carry their headers
class MalformedRequestFilter extends OncePerRequestFilter {

    private static final String WEBHOOKS = "/webhooks/";
    /** The operators' console: its forms post {@code application/x-www-form-urlencoded}, nothing else does. */
    private static final String CONSOLE = "/console/";
    private static final String TRACE = "TRACE";
    private static final String FORM = MediaType.APPLICATION_FORM_URLENCODED_VALUE;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (TRACE.equals(request.getMethod())) {
            // refused here, not in Spring MVC: after its own 405 the servlet would still echo the request back
            refuse(response, ProblemType.METHOD_NOT_ALLOWED, "TRACE is not served.");
            return;
        }
        String refusal = shapeRefusal(request);
        if (refusal != null) {
            refuse(response, ProblemType.BAD_REQUEST, refusal);
            return;
        }
        if (request.getServletPath().startsWith(WEBHOOKS)) {
            chain.doFilter(new RawBody(request), response);
            return;
        }
        String unsupported = request.getServletPath().startsWith(CONSOLE) ? formRefusal(request)
                : contentTypeRefusal(request);
        if (unsupported != null) {
            refuse(response, ProblemType.UNSUPPORTED_MEDIA_TYPE, unsupported);
            return;
        }
        chain.doFilter(request, response);
    }

    /**
     * A webhook's body as the bytes that came, signed as they are: under a form Content-Type, Spring would
     * rebuild the body from the container's parsed parameters instead (and a broken form body became a 500).
     */
    private static final class RawBody extends HttpServletRequestWrapper {
        RawBody(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getContentType() {
            String type = super.getContentType();
            return type != null && type.regionMatches(true, 0, FORM, 0, FORM.length())
                    ? MediaType.APPLICATION_OCTET_STREAM_VALUE : type;
        }
    }

    /** Why the request's path, query, headers or multipart type are malformed; null when they are not. */
    private static String shapeRefusal(HttpServletRequest request) {
        if (!decodes(request.getRequestURI(), false)) {
            return "The request path is not valid percent-encoded UTF-8 text.";
        }
        String query = request.getQueryString();
        if (query != null && !decodes(query, true)) {
            return "The query string is not valid percent-encoded UTF-8 text.";
        }
        for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements();) {
            String name = names.nextElement();
            for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements();) {
                if (hasControlCharacter(values.nextElement())) {
                    return "A request header holds a control character.";
                }
            }
        }
        String contentType = request.getContentType();
        if (contentType != null && contentType.regionMatches(true, 0, "multipart/", 0, 10)) {
            MediaType type = parse(contentType);
            String boundary = type == null ? null : type.getParameter("boundary");
            if (boundary == null || boundary.isBlank()) {
                return "A multipart Content-Type needs a boundary.";
            }
        }
        return null;
    }

    /** Why a body may not be read as the API's JSON; null when it may (or when there is no body). */
    private static String contentTypeRefusal(HttpServletRequest request) {
        boolean body = request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (!body) {
            return null;
        }
        MediaType type = request.getContentType() == null ? null : parse(request.getContentType());
        boolean json = type != null && type.getType().equals("application")
                && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
        if (!json || !utf8(type)) {
            return "Request bodies are JSON: Content-Type: application/json (UTF-8).";
        }
        return null;
    }

    /** Why a console request's body may not be read as its form; null when it may (or when there is none). */
    private static String formRefusal(HttpServletRequest request) {
        boolean body = request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (!body) {
            return null;
        }
        MediaType type = request.getContentType() == null ? null : parse(request.getContentType());
        boolean form = type != null && type.getType().equals("application")
                && type.getSubtype().equals("x-www-form-urlencoded");
        return form && utf8(type) ? null : "Console forms are application/x-www-form-urlencoded (UTF-8).";
    }

    private static boolean utf8(MediaType type) {
        try {
            Charset charset = type.getCharset();
            return charset == null || charset.equals(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) { // an unknown or illegal charset name
            return false;
        }
    }

    private static MediaType parse(String contentType) {
        try {
            return MediaType.parseMediaType(contentType);
        } catch (InvalidMediaTypeException e) {
            return null;
        }
    }

    /**
     * Whether the raw text percent-decodes (each part on its own, {@code +} as a space in a query) to UTF-8
     * without a NUL. A lone surrogate has no valid UTF-8 form, so the strict decoder refuses it too.
     */
    static boolean decodes(String raw, boolean query) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    return false;
                }
                int high = Character.digit(raw.charAt(i + 1), 16);
                int low = Character.digit(raw.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return false;
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else if (query && (c == '&' || c == '=')) {
                if (!utf8WithoutNul(bytes.toByteArray())) {
                    return false;
                }
                bytes.reset();
            } else if (c > 0x7f) { // the container hands over the raw bytes as ISO-8859-1
                bytes.write(c & 0xff);
            } else {
                bytes.write(query && c == '+' ? ' ' : c);
            }
        }
        return utf8WithoutNul(bytes.toByteArray());
    }

    private static boolean utf8WithoutNul(byte[] bytes) {
        try {
            CharBuffer text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return StorableText.isStorable(text);
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static boolean hasControlCharacter(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    /** The problem, written here: no handler runs, so the advice cannot render it. No request value echoed. */
    static void refuse(HttpServletResponse response, ProblemType type, String detail) throws IOException {
        response.setStatus(type.status().value());
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("utf-8");
        response.getWriter().write("""
                {"type":"%s","title":"%s","status":%d,"detail":"%s"}""".formatted(type.uri(), type.title(),
                type.status().value(), detail));
    }
}
