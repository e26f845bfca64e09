package com.acme.payments.psp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.AbstractBufferingClientHttpRequest;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The PSP's transport on the JDK {@link HttpClient} (one client: pooled keep-alive connections, a
 * fixed executor): the request body goes out as one byte array, and the whole answer (headers and
 * body, at most {@code maxBody} bytes) must arrive within the read timeout. Spring's
 * {@code JdkClientHttpRequestFactory} streams every body through a new thread per call
 * ({@code OutputStreamPublisher} on a {@code SimpleAsyncTaskExecutor}); the PSP's bodies are a few
 * hundred bytes, already in memory, so nothing needs streaming. Every failure here is an
 * {@link IOException}, which {@link PspClient} classifies as an unknown outcome.
 */
final class PspHttpRequestFactory implements ClientHttpRequestFactory {

    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final HttpClient http;
    private final Duration readTimeout;
    private final int maxBody;
    private final ScheduledExecutorService timer;

    /** {@code timer} ends a body that has not arrived by the deadline (the client's own timeout ends at the headers). */
    PspHttpRequestFactory(HttpClient http, Duration readTimeout, int maxBody, ScheduledExecutorService timer) {
        this.http = http;
        this.readTimeout = readTimeout;
        this.maxBody = maxBody;
        this.timer = timer;
    }

    @Override
    public ClientHttpRequest createRequest(URI uri, HttpMethod method) {
        return new Request(uri, method);
    }

    private final class Request extends AbstractBufferingClientHttpRequest {

        private final URI uri;
        private final HttpMethod method;

        Request(URI uri, HttpMethod method) {
            this.uri = uri;
            this.method = method;
        }

        @Override
        public HttpMethod getMethod() {
            return method;
        }

        @Override
        public URI getURI() {
            return uri;
        }

        @Override
        protected ClientHttpResponse executeInternal(HttpHeaders headers, byte[] body) throws IOException {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(readTimeout).method(method.name(),
                    body.length == 0 && method == HttpMethod.GET ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            long deadline = System.nanoTime() + readTimeout.toNanos();
            try {
                // send(), not sendAsync(): the asynchronous path hands every answer to CompletableFuture's
                // default executor, which on a machine of one or two cores is a new thread per task
                return new Response(http.send(request.build(), info -> new BoundedBody(maxBody, deadline, timer)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for the PSP");
            }
        }
    }

    private static final class Response implements ClientHttpResponse {

        private final HttpResponse<byte[]> response;
        private final HttpHeaders headers = new HttpHeaders();

        Response(HttpResponse<byte[]> response) {
            this.response = response;
            response.headers().map().forEach(headers::addAll);
        }

        @Override
        public HttpStatusCode getStatusCode() {
            return HttpStatusCode.valueOf(response.statusCode());
        }

        @Override
        public String getStatusText() {
            return "";
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }

        @Override
        public InputStream getBody() {
            return new ByteArrayInputStream(response.body());
        }

        @Override
        public void close() {
            // the body is already read; the connection went back to the client's pool
        }
    }

    /**
     * Collects the body, failing (and dropping the connection) once it passes {@code max} bytes or
     * when it is not complete by the deadline: a PSP that sends its headers and then trickles or
     * stalls must not hold the caller past the read timeout.
     */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

        private final int max;
        private final long deadline;
        private final ScheduledExecutorService timer;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;
        private volatile ScheduledFuture<?> expiry;

        BoundedBody(int max, long deadline, ScheduledExecutorService timer) {
            this.max = max;
            this.deadline = deadline;
            this.timer = timer;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                fail(new HttpTimeoutException("no complete answer within the read timeout"));
                return;
            }
            expiry = timer.schedule(() -> fail(new HttpTimeoutException("no complete answer within the read timeout")),
                    left, TimeUnit.NANOSECONDS);
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            synchronized (bytes) {
                for (ByteBuffer buffer : buffers) {
                    if (bytes.size() + buffer.remaining() > max) {
                        fail(new IOException("PSP body larger than " + max + " bytes"));
                        return;
                    }
                    byte[] chunk = new byte[buffer.remaining()];
                    buffer.get(chunk);
                    bytes.write(chunk, 0, chunk.length);
                }
            }
        }

        @Override
        public void onError(Throwable error) {
            settled();
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            settled();
            synchronized (bytes) {
                result.complete(bytes.toByteArray());
            }
        }

        private void fail(IOException error) {
            settled();
            if (result.completeExceptionally(error)) {
                subscription.cancel();
            }
        }

        private void settled() {
            ScheduledFuture<?> pending = expiry;
            if (pending != null) {
                pending.cancel(false);
            }
        }
    }
}
