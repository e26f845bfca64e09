package com.acme.payments.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;

import com.acme.payments.support.Http;
import com.acme.payments.support.IntegrationTest;

import jakarta.servlet.http.HttpServletRequest;

/** A mapping nobody wrote an access rule for is closed, whoever calls. */
class DenyByDefaultIntegrationTests extends IntegrationTest {

    static final AtomicInteger CALLS = new AtomicInteger();
    static final AtomicInteger LOOK_UPS = new AtomicInteger();

    @TestConfiguration
    static class Mappings {
        @Bean
        Forgotten forgotten() {
            return new Forgotten();
        }

        /** Asked before Spring MVC's own mappings, it counts how often a request's handler is looked up. */
        @Bean
        HandlerMapping lookUpCounter() {
            return new LookUpCounter();
        }
    }

    static final class LookUpCounter implements HandlerMapping, Ordered {
        @Override
        public HandlerExecutionChain getHandler(HttpServletRequest request) {
            if (request.getRequestURI().startsWith("/api/test/")) {
                LOOK_UPS.incrementAndGet();
            }
            return null;
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE + 1;
        }
    }

    /** A controller as someone might add it: one method with a rule, one without. */
    @RestController
    static class Forgotten {

        @GetMapping("/api/test/forgotten")
        String forgotten() {
            CALLS.incrementAndGet();
            return "reached";
        }

        @GetMapping("/api/test/ruled")
        @Allow(scopes = Scope.OPERATOR)
        String ruled() {
            CALLS.incrementAndGet();
            return "reached";
        }
    }

    @BeforeEach
    void reset() {
        CALLS.set(0);
        LOOK_UPS.set(0);
    }

    @Test
    @DisplayName("the handler the access rules judged is the one the dispatcher runs: one look-up per request")
    void theJudgedHandlerRunsWithoutASecondLookUp() {
        assertThat(http().bearer("test-admin-key").get("/api/test/ruled").status()).isEqualTo(200);
        assertThat(CALLS).hasValue(1);
        assertThat(LOOK_UPS).as("look-ups of the request's handler").hasValue(1);

        LOOK_UPS.set(0);
        assertThat(http().bearer("test-shop-key").get("/api/test/ruled").status()).isEqualTo(403);
        assertThat(LOOK_UPS).as("a refused request is looked up by the rules only").hasValue(1);
        assertThat(CALLS).hasValue(1);
    }

    @Test
    @DisplayName("a mapping without @Allow or @Public answers 401 anonymous and 403 to every key, and never runs")
    void unannotatedMappingIsRefused() {
        Http.Response anonymous = http().get("/api/test/forgotten");
        Http.Response unknown = http().bearer("not-a-key").get("/api/test/forgotten");
        Http.Response shop = http().bearer("test-shop-key").get("/api/test/forgotten");
        Http.Response admin = http().bearer("test-admin-key").get("/api/test/forgotten");

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.json().path("type").asString()).endsWith("/unauthorized");
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(shop.status()).isEqualTo(403);
        assertThat(admin.status()).isEqualTo(403);
        assertThat(admin.json().path("type").asString()).endsWith("/forbidden");
        assertThat(CALLS).hasValue(0);
    }

    @Test
    @DisplayName("the same controller's method with a rule is reachable, so the refusal is the missing rule")
    void annotatedMappingBesideItIsReachable() {
        assertThat(http().bearer("test-admin-key").get("/api/test/ruled").status()).isEqualTo(200);
        assertThat(http().bearer("test-shop-key").get("/api/test/ruled").status()).isEqualTo(403);
        assertThat(CALLS).hasValue(1);
    }

    @Test
    @DisplayName("an unknown path still answers 404; the API description and health stay public")
    void unknownPathAndApiDocs() {
        assertThat(http().get("/api/nothing-here").status()).isEqualTo(404);
        assertThat(http().get("/v3/api-docs").status()).isEqualTo(200);
        assertThat(http().get("/actuator/health").status()).isEqualTo(200);
    }
}
