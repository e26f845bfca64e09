package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.PaymentsApplication;
import com.acme.payments.support.Http;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.TestDatabase;

/** Two application instances on one database, receiving the same events at the same moment. */
class ConcurrentDeliveryIntegrationTests extends StripeIntegrationTest {

    private static final int EVENTS = 8;
    private static ConfigurableApplicationContext second;
    private static ExecutorService pool;

    @BeforeAll
    static void startSecondInstance() {
        // command-line arguments: they outrank application.yml, unlike the builder's default properties
        second = new SpringApplicationBuilder(PaymentsApplication.class).profiles("test").run(
                "--spring.datasource.url=" + TestDatabase.url(),
                "--spring.datasource.username=" + TestDatabase.user(),
                "--spring.datasource.password=" + TestDatabase.password(),
                "--payments.psp.api-url=" + PspStub.baseUrl(),
                "--stripe.api-base=" + PspStub.baseUrl(),
                "--server.port=0");
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    static void stopSecondInstance() {
        pool.shutdownNow();
        if (second != null) {
            second.close();
        }
    }

    @Test
    @DisplayName("concurrent-redelivery-grants-once")
    void concurrentRedeliveryGrantsOnce() throws Exception {
        Http a = http();
        Http b = new Http("http://localhost:" + second.getEnvironment().getProperty("local.server.port"));
        List<String[]> cases = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            String userId = id("user");
            String subscriptionId = id("sub");
            subscribed(userId, subscriptionId);
            cases.add(new String[] { userId, subscriptionId, id("evt") });
        }
        List<Integer> statuses = new ArrayList<>();
        for (String[] c : cases) {
            String body = renewal(c[2], c[1], c[0], 1, "conv_" + c[2]);
            CyclicBarrier together = new CyclicBarrier(2);
            CompletableFuture<Http.Response> viaA = CompletableFuture.supplyAsync(() -> race(together, a, body), pool);
            CompletableFuture<Http.Response> viaB = CompletableFuture.supplyAsync(() -> race(together, b, body), pool);
            Http.Response ra = viaA.get(30, TimeUnit.SECONDS);
            Http.Response rb = viaB.get(30, TimeUnit.SECONDS);
            statuses.add(ra.status());
            statuses.add(rb.status());
            // a 503 (in flight elsewhere) is answered honestly; Stripe redelivers until it gets a 2xx
            for (Http.Response r : List.of(ra, rb)) {
                assertThat(r.status()).isIn(200, 503);
            }
            if (ra.status() != 200 || rb.status() != 200) {
                Http.Response redelivery = deliver(b, body);
                assertThat(redelivery.status()).isEqualTo(200);
            }
        }

        for (String[] c : cases) {
            assertThat(grantCount(c[1])).as("grants of %s", c[1]).isEqualTo(2);
            assertThat(credits(c[0])).as("credits of %s", c[0]).isEqualTo(1000);
            assertThat(outboxKeys(c[2])).as("outbox of %s", c[2]).hasSize(2);
            assertThat(eventState(c[2])).isEqualTo("completed");
        }
        assertThat(statuses).contains(200);
    }

    private static Http.Response race(CyclicBarrier together, Http http, String body) {
        try {
            together.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return deliver(http, body);
    }
}
