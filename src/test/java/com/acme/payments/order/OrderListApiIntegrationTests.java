package com.acme.payments.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/orders}: newest first, cursor paging by the last orderRef, the status and date filters,
 * the limit's bounds and who may call it. Orders are seeded with chosen creation times (several sharing one
 * instant, so the id breaks ties across a page boundary), each test in a window of its own.
 */
class OrderListApiIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    /** A window of one day, somewhere in 2001, that no other test uses. */
    private static Instant window() {
        return Instant.parse("2001-01-01T00:00:00Z").plus(ThreadLocalRandom.current().nextInt(360), ChronoUnit.DAYS)
                .plus(ThreadLocalRandom.current().nextInt(1_000_000), ChronoUnit.MICROS);
    }

    private String seed(String status, Instant createdAt) {
        String ref = Shop.newOrderRef();
        jdbc.sql("""
                INSERT INTO orders (order_ref, status, amount, currency, customer_ref, client_token_hash, created_at,
                                    updated_at)
                VALUES (:ref, :status, 10.00, 'EUR', 'c-list', decode(md5(:ref), 'hex'), :at, :at)
                """).param("ref", ref).param("status", status).param("at", Timestamp.from(createdAt)).update();
        return ref;
    }

    private Response list(String query) {
        return http().bearer(Shop.SHOP_KEY).get("/api/orders" + query);
    }

    private static List<String> refs(Response page) {
        List<String> refs = new ArrayList<>();
        page.json().path("data").forEach(order -> refs.add(order.path("orderRef").asString()));
        return refs;
    }

    @Test
    @DisplayName("paging through every order with several pages returns each exactly once, newest first")
    void pagesThroughEveryOrderOnceNewestFirst() {
        Instant base = window();
        for (int i = 0; i < 9; i++) {
            Instant at = base.plusSeconds(i / 3); // three orders per instant: the id orders them
            seed(i % 2 == 0 ? "PAID" : "AWAITING_PAYMENT", at);
        }
        List<String> expected = jdbc.sql("SELECT order_ref FROM orders ORDER BY created_at DESC, id DESC")
                .query(String.class).list();
        assertThat(expected.size()).isGreaterThan(9);

        List<String> seen = new ArrayList<>();
        String after = null;
        int pages = 0;
        while (true) {
            Response page = list("?limit=4" + (after == null ? "" : "&startingAfter=" + after));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            List<String> refs = refs(page);
            boolean hasMore = page.json().path("hasMore").asBoolean();
            assertThat(refs).hasSizeLessThanOrEqualTo(4);
            pages++;
            seen.addAll(refs);
            if (!hasMore) {
                break;
            }
            assertThat(refs).hasSize(4);
            after = refs.get(3);
        }
        assertThat(pages).isGreaterThan(2);
        assertThat(new HashSet<>(seen)).hasSameSizeAs(seen);
        assertThat(seen).containsExactlyElementsOf(expected);
    }

    @Test
    @DisplayName("each item is the order view GET /api/orders/{orderRef} answers; no-store like every answer")
    void itemsAreTheOrderView() {
        var created = new Shop(http()).createOrder("12.34", "EUR");
        Response page = list("?limit=100");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        JsonNode item = null;
        for (JsonNode order : page.json().path("data")) {
            if (order.path("orderRef").asString().equals(created.orderRef())) {
                item = order;
            }
        }
        assertThat(item).as("the order just created is on the first page").isNotNull();
        assertThat(item).isEqualTo(new Shop(http()).order(created.orderRef()).json());
    }

    @Test
    @DisplayName("status and the date window filter (from inclusive, to exclusive), and page together")
    void filtersByStatusAndWindow() {
        Instant from = window();
        Instant to = from.plusSeconds(3600);
        seed("PAID", from.minusNanos(1000)); // before the window
        String atFrom = seed("PAID", from);
        String failed = seed("PAYMENT_FAILED", from.plusSeconds(10));
        String paidA = seed("PAID", from.plusSeconds(20));
        String paidB = seed("PAID", from.plusSeconds(20));
        String paidC = seed("PAID", to.minusNanos(1000));
        String atTo = seed("PAID", to); // the end is exclusive
        String later = seed("PAID", to.plusSeconds(1));

        String window = "&createdFrom=" + from + "&createdTo=" + to;
        Response all = list("?limit=100" + window);
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(refs(all)).containsExactly(paidC, paidB, paidA, failed, atFrom);
        assertThat(all.json().path("hasMore").asBoolean()).isFalse();

        Response paid = list("?status=PAID&limit=2" + window);
        assertThat(refs(paid)).containsExactly(paidC, paidB);
        assertThat(paid.json().path("hasMore").asBoolean()).isTrue();
        Response next = list("?status=PAID&limit=2&startingAfter=" + paidB + window);
        assertThat(refs(next)).containsExactly(paidA, atFrom);
        assertThat(next.json().path("hasMore").asBoolean()).isFalse();

        // a cursor newer than the window: the window's end is the nearer bound
        Response fromLater = list("?limit=100&startingAfter=" + later + window);
        assertThat(refs(fromLater)).doesNotContain(atTo).containsExactly(paidC, paidB, paidA, failed, atFrom);
        assertThat(refs(list("?status=PAID&limit=100&startingAfter=" + later + window)))
                .containsExactly(paidC, paidB, paidA, atFrom);
        assertThat(refs(list("?status=PAYMENT_FAILED" + window))).containsExactly(failed);
        assertThat(refs(list("?status=AUTHORIZED" + window))).isEmpty();
        assertThat(refs(list("?limit=100&createdTo=" + from))).doesNotContain(atFrom, failed, paidA, paidB, paidC);
        // an offset other than Z names the same instant
        String shifted = "&createdFrom=" + from.atOffset(java.time.ZoneOffset.ofHours(2))
                + "&createdTo=" + to;
        assertThat(refs(list("?limit=100" + shifted.replace("+", "%2B")))).containsExactly(paidC, paidB, paidA, failed,
                atFrom);
    }

    @Test
    @DisplayName("limit: 20 by default, 1 to 100 accepted")
    void limitBounds() {
        Instant from = window();
        for (int i = 0; i < 101; i++) {
            seed("PAID", from.plusSeconds(i));
        }
        String window = "&createdFrom=" + from + "&createdTo=" + from.plusSeconds(3600);
        Response byDefault = list("?x=1" + window);
        assertThat(refs(byDefault)).hasSize(20);
        assertThat(byDefault.json().path("hasMore").asBoolean()).isTrue();
        assertThat(refs(list("?limit=1" + window))).hasSize(1);
        Response hundred = list("?limit=100" + window);
        assertThat(refs(hundred)).hasSize(100);
        assertThat(hundred.json().path("hasMore").asBoolean()).isTrue();
    }

    @ParameterizedTest(name = "{0} → 400 naming {1}")
    @CsvSource(delimiter = '|', value = {
            "limit=0                                         | limit",
            "limit=101                                       | limit",
            "limit=-1                                        | limit",
            "limit=ten                                       | limit",
            "limit=                                          | limit",
            "status=paid                                     | status",
            "status=REFUNDED                                 | status",
            "status=PAID,PAYMENT_FAILED                      | status",
            "createdFrom=yesterday                           | createdFrom",
            "createdFrom=2026-01-01                          | createdFrom",
            "createdTo=2026-13-01T00:00:00Z                  | createdTo",
            "createdTo=2026-01-01T00:00:00                   | createdTo",
            "createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00Z | createdTo",
            "startingAfter=ord-no-such-order                 | startingAfter",
            "startingAfter=../etc                            | startingAfter",
            "startingAfter=                                  | startingAfter" })
    void invalidParametersAre400(String query, String field) {
        Response response = list("?" + query);
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.problemSlug()).isEqualTo("validation-failed");
        assertThat(response.json().path("errors").toString()).contains("\"field\":\"" + field + "\"");
    }

    @Test
    @DisplayName("a shop key and an admin key may list; an order's client token is 403; no or a wrong key 401")
    void access() {
        var created = new Shop(http()).createOrder("1.00", "EUR");
        assertThat(http().bearer(Shop.SHOP_KEY).get("/api/orders").status()).isEqualTo(200);
        assertThat(http().bearer(Shop.ADMIN_KEY).get("/api/orders").status()).isEqualTo(200);
        Response token = http().bearer(created.clientToken()).get("/api/orders");
        assertThat(token.status()).isEqualTo(403);
        assertThat(token.problemSlug()).isEqualTo("forbidden");
        assertThat(http().get("/api/orders").status()).isEqualTo(401);
        assertThat(http().bearer("nope").get("/api/orders").status()).isEqualTo(401);
        assertThat(http().get("/api/orders?limit=0").status()).as("401 before 400").isEqualTo(401);
    }
}
