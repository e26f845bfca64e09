package com.acme.payments.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.support.PspStub;

/**
 * The sink client on the real WireMock: it starts no thread per delivery (Spring's JDK request
 * factory published every body on a new thread), and it judges a delivery by the status alone, so a
 * sink whose body is slow to finish (WireMock writes a 503's headers, then ends the empty chunked body
 * after its own bookkeeping) still reads as that status, not as a read timeout.
 */
class SinkClientIntegrationTests extends OutboxIntegrationTest {

    @Autowired
    SinkClient client;

    @Test
    void sequentialDeliveriesStartNoThreads() throws Exception {
        URI sink = URI.create(PspStub.baseUrl() + "/sinks/notify");
        for (int i = 0; i < 10; i++) {
            deliver(sink, i); // connections, the client's executor and WireMock's workers exist after this
        }
        long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();

        for (int i = 10; i < 110; i++) {
            assertThat(deliver(sink, i)).isEqualTo(new SinkClient.Result(true, null));
        }

        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
        assertThat(started).as("threads started during 100 sink deliveries").isLessThan(10);
    }

    @Test
    void concurrentDeliveriesShareTheClientsFewThreads() throws Exception {
        URI sink = URI.create(PspStub.baseUrl() + "/sinks/notify");
        ExecutorService relays = Executors.newFixedThreadPool(8);
        try {
            relays.invokeAll(Collections.nCopies(8, () -> deliver(sink, 0))); // the callers themselves exist
            long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
            List<Future<SinkClient.Result>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int n = i;
                results.add(relays.submit(() -> deliver(sink, 1000 + n)));
            }
            for (Future<SinkClient.Result> result : results) {
                assertThat(result.get()).isEqualTo(new SinkClient.Result(true, null));
            }
            // WireMock may add a few workers for the extra connections; a thread per call would be 200+
            long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
            assertThat(started).as("threads started during 200 deliveries from 8 callers").isLessThan(50);
        } finally {
            relays.shutdownNow();
        }
    }

    @Test
    void aStatusCountsAtItsHeadersEvenWhenTheBodyOutlastsTheReadTimeout() throws Exception {
        String key = prefix + "slow-body";
        // the headers with the first of 20 chunks, the last one 15 s later (the sinks' read timeout is 10 s)
        psp.stubFor(post(urlPathEqualTo("/sinks/notify")).atPriority(1)
                .withHeader(SinkClient.IDEMPOTENCY_KEY, equalTo(key))
                .willReturn(aResponse().withStatus(503).withBody("{\"detail\":\"the sink is unavailable, retry later\"}")
                        .withChunkedDribbleDelay(20, 15_000)));

        SinkClient.Result result = client.post(URI.create(PspStub.baseUrl() + "/sinks/notify"), key, "{}", null, null);

        assertThat(result).isEqualTo(new SinkClient.Result(false, "HTTP 503"));
    }

    private SinkClient.Result deliver(URI sink, int n) throws InterruptedException {
        return client.post(sink, prefix + n + ":renewal_notice", "{\"n\":" + n + "}", "t=1,v1=x", null);
    }
}
