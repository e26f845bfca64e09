package com.acme.payments.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A browser's part in HTTP: keeps the console's cookie, follows no redirect on its own, and reads the CSRF token
 * of the last page it got so that its next form post carries it.
 */
final class ConsoleClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final String base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient client;
    private String csrf;

    ConsoleClient(String base) {
        this.base = base;
        this.client = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    HttpResponse<String> get(String path) {
        return remember(send(HttpRequest.newBuilder(URI.create(base + path)).GET()));
    }

    /** Posts the form with the last page's CSRF token. */
    HttpResponse<String> post(String path, Map<String, String> fields) {
        Map<String, String> form = new LinkedHashMap<>(fields);
        if (csrf != null) {
            form.put("_csrf", csrf);
        }
        return postRaw(path, form);
    }

    /** Posts the form with the last page's CSRF token; a name may repeat (ticked checkboxes). */
    HttpResponse<String> post(String path, List<Map.Entry<String, String>> fields) {
        List<Map.Entry<String, String>> form = new ArrayList<>(fields);
        if (csrf != null) {
            form.add(Map.entry("_csrf", csrf));
        }
        return postEntries(path, form);
    }

    /** Posts exactly these fields (no CSRF token unless given). */
    HttpResponse<String> postRaw(String path, Map<String, String> form) {
        return postEntries(path, List.copyOf(form.entrySet()));
    }

    private HttpResponse<String> postEntries(String path, List<Map.Entry<String, String>> form) {
        String body = form.stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return remember(send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))));
    }

    /** Opens the sign-in page and posts the key: the answer to the post (a redirect). */
    HttpResponse<String> signIn(String key) {
        get("/console");
        return post("/console/sign-in", Map.of("key", key));
    }

    String csrf() {
        return csrf;
    }

    String sessionCookie() {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("CONSOLE_SESSION"))
                .map(c -> c.getValue()).findFirst().orElse(null);
    }

    private HttpResponse<String> remember(HttpResponse<String> response) {
        Matcher token = CSRF.matcher(response.body());
        if (token.find()) {
            csrf = token.group(1);
        }
        return response;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
