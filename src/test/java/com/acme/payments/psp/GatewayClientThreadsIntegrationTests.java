package com.acme.payments.psp;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.support.IntegrationTest;

/**
 * The PSP client starts no thread per call: Spring's JDK request factory used to publish every
 * request body on a new {@code SimpleAsyncTaskExecutor} thread, which under load meant thousands of
 * thread starts a minute. Counted with the JVM's own total-started counter, around sequential calls
 * and around eight callers at once.
 */
class GatewayClientThreadsIntegrationTests extends IntegrationTest {

    @Autowired
    GatewayClient client;

    @Test
    void sequentialCallsStartNoThreads() {
        psp.stubFor(createCall().willReturn(created("pay_threads", "READY", "1.00", "EUR")));
        for (int i = 0; i < 10; i++) {
            create(i); // connections, the client's executor and WireMock's workers exist after this
        }
        long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();

        for (int i = 10; i < 110; i++) {
            assertThat(create(i).id()).isEqualTo("pay_threads");
        }

        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
        assertThat(started).as("threads started during 100 PSP calls").isLessThan(10);
    }

    @Test
    void concurrentCallersShareTheClientsFewThreads() throws Exception {
        psp.stubFor(createCall().willReturn(created("pay_threads", "READY", "1.00", "EUR")));
        ExecutorService callers = Executors.newFixedThreadPool(8);
        callers.invokeAll(java.util.Collections.nCopies(8, () -> create(0))); // the callers themselves exist
        long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
        try {
            List<Future<PspPayment>> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int n = i;
                answers.add(callers.submit(() -> create(1000 + n)));
            }
            for (Future<PspPayment> answer : answers) {
                assertThat(answer.get().id()).isEqualTo("pay_threads");
            }
        } finally {
            callers.shutdownNow();
        }
        // WireMock may add a few workers for the extra connections; a thread per call would be 200
        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
        assertThat(started).as("threads started during 200 PSP calls from 8 callers").isLessThan(50);
    }

    private PspPayment create(int n) {
        return client.create(CreatePayment.deposit("ord_threads", new BigDecimal("1.00"), "EUR", "chk_threads_" + n,
                "https://shop.test/r", null));
    }
}
