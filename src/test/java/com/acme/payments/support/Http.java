package com.acme.payments.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small real HTTP client for black-box style tests against the running service. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final Map<String, String> headers = new LinkedHashMap<>();

    public Http(String base) {
        this.base = base;
    }

    public Http bearer(String credential) {
        return header("Authorization", "Bearer " + credential);
    }

    public Http header(String name, String value) {
        Http copy = new Http(base);
        copy.headers.putAll(headers);
        copy.headers.put(name, value);
        return copy;
    }

    public Response get(String path) {
        return send("GET", path, null);
    }

    public Response post(String path, String body) {
        return send("POST", path, body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public Response post(String path, byte[] body) {
        return send("POST", path, body);
    }

    public Response send(String method, String path, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(), response.headers().map());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public record Response(int status, String body, Map<String, java.util.List<String>> headers) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst().orElse(null);
        }

        /** The problem {@code type} slug (the last path segment), for problem responses. */
        public String problemSlug() {
            String type = json().path("type").asString();
            return type.substring(type.lastIndexOf('/') + 1);
        }
    }
}
