package com.acme.payments.common.http;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.AbstractBufferingClientHttpRequest;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Outbound HTTP (the PSP, Stripe, the outbox sinks) on the JDK {@link HttpClient} (one client per
 * caller: pooled keep-alive connections, a fixed executor): the request body goes out as one byte
 * array from the caller's thread. Spring's {@code JdkClientHttpRequestFactory} streams every body
 * through a new thread per call ({@code OutputStreamPublisher} on a {@code SimpleAsyncTaskExecutor});
 * these bodies are small and already in memory, so nothing needs streaming. Every failure here is an
 * {@link IOException} (a {@code ResourceAccessException} to the {@code RestClient}).
 * <p>
 * Two ways to take the answer: {@link #create} waits for the whole answer (headers and at most
 * {@code maxBody} bytes of body) within the read timeout, for callers that read the body;
 * {@link #statusOnly} answers at the headers (only those must arrive within the read timeout) and
 * drains the body in the background, for callers that judge by the status alone. Draining, not
 * closing, is what lets the connection go back to the pool: a sink that writes its 503's headers and
 * finishes the empty chunked body later (WireMock does, after its own bookkeeping) would otherwise
 * either hold the caller until the read timeout or lose its connection.
 */
public final class ByteArrayJdkRequestFactory implements ClientHttpRequestFactory {

    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final HttpClient http;
    private final Duration readTimeout;
    private final int maxBody;
    private final ScheduledExecutorService timer;
    private final boolean bodyNeeded;

    /** {@code timer} ends a body that has not arrived by the deadline (the client's own timeout ends at the headers). */
    public ByteArrayJdkRequestFactory(HttpClient http, Duration readTimeout, int maxBody, ScheduledExecutorService timer) {
        this(http, readTimeout, maxBody, timer, true);
    }

    private ByteArrayJdkRequestFactory(HttpClient http, Duration readTimeout, int maxBody,
            ScheduledExecutorService timer, boolean bodyNeeded) {
        this.http = http;
        this.readTimeout = readTimeout;
        this.maxBody = maxBody;
        this.timer = timer;
        this.bodyNeeded = bodyNeeded;
    }

    /**
     * Answers at the headers with an empty body; the real body (at most {@code maxBody} bytes, by the
     * read timeout) is drained in the background so the connection can be reused, else dropped.
     */
    public static ByteArrayJdkRequestFactory statusOnly(HttpClient http, Duration readTimeout, int maxBody,
            ScheduledExecutorService timer) {
        return new ByteArrayJdkRequestFactory(http, readTimeout, maxBody, timer, false);
    }

    /** The client's executor: it only moves bytes between the selector and the callers. */
    public static ExecutorService daemonPool(String prefix, int threads) {
        return Executors.newFixedThreadPool(threads, daemonThreads(prefix));
    }

    /** One timer thread ends answers whose body has not arrived by the read timeout. */
    public static ScheduledExecutorService deadlineTimer(String prefix) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemonThreads(prefix));
        timer.setRemoveOnCancelPolicy(true); // a completed answer's expiry leaves the queue at once
        return timer;
    }

    private static CustomizableThreadFactory daemonThreads(String prefix) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
        threads.setDaemon(true);
        return threads;
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
                return new Response(http.send(request.build(),
                        info -> new BoundedBody(maxBody, deadline, timer, bodyNeeded)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for " + uri.getHost());
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
            // the body is already read (or being drained); the connection goes back to the client's pool
        }
    }

    /**
     * Collects the body, failing (and dropping the connection) once it passes {@code max} bytes or
     * when it is not complete by the deadline: a server that sends its headers and then trickles or
     * stalls must not hold the caller past the read timeout. When the body is not {@code needed}, the
     * caller has its (empty) answer at once and the same limits only decide whether the connection
     * survives.
     */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

        private static final CompletableFuture<byte[]> EMPTY = CompletableFuture.completedFuture(new byte[0]);

        private final int max;
        private final long deadline;
        private final ScheduledExecutorService timer;
        private final boolean needed;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;
        private volatile ScheduledFuture<?> expiry;
        private long received; // guarded by bytes

        BoundedBody(int max, long deadline, ScheduledExecutorService timer, boolean needed) {
            this.max = max;
            this.deadline = deadline;
            this.timer = timer;
            this.needed = needed;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return needed ? result : EMPTY;
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
                    received += buffer.remaining();
                    if (received > max) {
                        fail(new IOException("answer body larger than " + max + " bytes"));
                        return;
                    }
                    if (!needed) {
                        buffer.position(buffer.limit()); // counted, not kept
                        continue;
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
