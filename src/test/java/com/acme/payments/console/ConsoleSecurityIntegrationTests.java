package com.acme.payments.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.apache.catalina.Context;
import org.apache.catalina.Session;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/** The console's edge: sessions, CSRF, headers and who may sign in, over real HTTP. */
class ConsoleSecurityIntegrationTests extends ConsoleFixtures {

    @Autowired
    WebServerApplicationContext server;

    @Test
    @DisplayName("without a session a console page sends to the sign-in page, and GET /console is that page")
    void noSessionMeansTheSignInPage() {
        ConsoleClient anonymous = console();
        HttpResponse<String> page = anonymous.get("/console/unresolved");
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location").orElseThrow()).endsWith("/console");

        HttpResponse<String> signIn = anonymous.get("/console");
        assertThat(signIn.statusCode()).isEqualTo(200);
        assertThat(signIn.body()).contains("name=\"key\"").contains("name=\"_csrf\"").doesNotContain("Abandon");
    }

    @Test
    @DisplayName("a form posted without its CSRF token is refused 403, even from an operator's session")
    void csrfMissingIsRefused() {
        StuckRefund stuck = stuckRefund("20.00");
        ConsoleClient anna = console();
        assertThat(anna.signIn(OPERATOR_KEY).statusCode()).isEqualTo(302);

        HttpResponse<String> forged = anna.postRaw("/console/refunds/" + stuck.referenceId() + "/abandon",
                Map.of("reason", "forged"));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(refundState(stuck.referenceId())).isEqualTo("UNKNOWN");
        assertThat(anna.postRaw("/console/sign-in", Map.of("key", OPERATOR_KEY)).statusCode())
                .as("the sign-in form too").isEqualTo(403);
    }

    @Test
    @DisplayName("the session cookie is HttpOnly, SameSite=Strict, for /console only, and changes at sign-in")
    void sessionCookieAttributes() {
        ConsoleClient anna = console();
        anna.get("/console");
        String before = anna.sessionCookie();
        HttpResponse<String> signedIn = anna.post("/console/sign-in", Map.of("key", OPERATOR_KEY));

        List<String> cookies = signedIn.headers().allValues("Set-Cookie");
        assertThat(cookies).hasSize(1);
        String cookie = cookies.get(0);
        assertThat(cookie).startsWith("CONSOLE_SESSION=").contains("HttpOnly").contains("SameSite=Strict")
                .contains("Path=/console").as("plain HTTP: not Secure").doesNotContain("Secure");
        assertThat(anna.sessionCookie()).as("session fixation: a new id at sign-in").isNotEqualTo(before);
    }

    @Test
    @DisplayName("payments.console.session-idle is the signed-in session's idle limit")
    void idleLimitIsApplied() throws java.io.IOException {
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        Context context = (Context) ((TomcatWebServer) server.getWebServer()).getTomcat().getHost().findChildren()[0];
        Session session = context.getManager().findSession(anna.sessionCookie());
        assertThat(session).isNotNull();
        assertThat(session.getMaxInactiveInterval()).as("7m, as this test's setting").isEqualTo(7 * 60);
    }

    @Test
    @DisplayName("every console answer carries the CSP without inline script, X-Frame-Options DENY and no-store")
    void headersOnEveryAnswer() {
        StuckRefund stuck = stuckRefund("10.00");
        ConsoleClient anna = console();
        List<HttpResponse<String>> answers = new java.util.ArrayList<>();
        answers.add(anna.get("/console"));
        answers.add(anna.get("/console/unresolved"));
        answers.add(anna.get("/console/assets/console.css"));
        answers.add(anna.post("/console/sign-in", Map.of("key", OPERATOR_KEY)));
        for (String page : List.of("/console/unresolved", "/console/discrepancies", "/console/second-charges",
                "/console/dead-effects", "/console/orders", "/console/orders/" + stuck.orderRef(),
                "/console/orders/no-such-order", "/console/reconciliations", "/console/reconciliations/no-such-run",
                "/console/keys")) {
            answers.add(anna.get(page));
        }
        answers.add(anna.postRaw("/console/refunds/" + stuck.referenceId() + "/abandon", Map.of()));
        answers.add(anna.post("/console/refunds/rfd_nope/abandon", Map.of("reason", "x")));

        assertThat(answers).extracting(HttpResponse::statusCode).contains(200, 302, 403, 404);
        for (HttpResponse<String> answer : answers) {
            assertThat(answer.headers().firstValue("Content-Security-Policy")).as(answer.uri().toString())
                    .hasValue(ConsoleSecurity.CONTENT_SECURITY_POLICY);
            assertThat(answer.headers().firstValue("Content-Security-Policy").orElseThrow())
                    .contains("script-src 'self'").doesNotContain("unsafe-inline");
            assertThat(answer.headers().firstValue("X-Frame-Options")).as(answer.uri().toString()).hasValue("DENY");
            assertThat(answer.headers().firstValue("Cache-Control").orElse("")).as(answer.uri().toString())
                    .contains("no-store");
            assertThat(answer.body()).as(answer.uri().toString()).doesNotContain("<script>").doesNotContain("style=");
        }
    }

    @Test
    @DisplayName("the key is in no answer: not in a page, a header or a cookie")
    void keyIsInNoAnswer() {
        StuckRefund stuck = stuckRefund("10.00");
        ConsoleClient anna = console();
        List<HttpResponse<String>> answers = new java.util.ArrayList<>();
        answers.add(anna.get("/console"));
        answers.add(anna.post("/console/sign-in", Map.of("key", OPERATOR_KEY)));
        for (String page : List.of("/console", "/console/unresolved", "/console/discrepancies",
                "/console/second-charges", "/console/dead-effects", "/console/orders",
                "/console/orders/" + stuck.orderRef(), "/console/reconciliations", "/console/keys")) {
            answers.add(anna.get(page));
        }
        ConsoleClient refused = console();
        answers.add(refused.signIn(SHOP_KEY));
        answers.add(refused.get("/console?refused"));

        for (HttpResponse<String> answer : answers) {
            assertThat(answer.body()).as(answer.uri().toString()).doesNotContain(OPERATOR_KEY).doesNotContain(SHOP_KEY);
            assertThat(answer.headers().map().toString()).as(answer.uri().toString()).doesNotContain(OPERATOR_KEY)
                    .doesNotContain(SHOP_KEY);
        }
    }

    @Test
    @DisplayName("a shop's key (orders only) and an unknown key are refused at sign-in, with one message")
    void shopKeyIsRefused() {
        for (String key : List.of(SHOP_KEY, "no-such-key")) {
            ConsoleClient shop = console();
            HttpResponse<String> refused = shop.signIn(key);
            assertThat(refused.statusCode()).isEqualTo(302);
            assertThat(refused.headers().firstValue("Location").orElseThrow()).endsWith("/console?refused");
            assertThat(shop.get("/console?refused").body()).contains("That key does not open the console.");
            assertThat(shop.get("/console/unresolved").statusCode()).as("not signed in").isEqualTo(302);
        }
    }

    @Test
    @DisplayName("sign-out ends the session: its cookie opens nothing after")
    void signOutEndsTheSession() {
        ConsoleClient anna = console();
        anna.signIn(OPERATOR_KEY);
        assertThat(anna.get("/console/unresolved").statusCode()).isEqualTo(200);
        HttpResponse<String> out = anna.post("/console/sign-out", Map.of());
        assertThat(out.statusCode()).isEqualTo(302);
        assertThat(out.headers().firstValue("Location").orElseThrow()).endsWith("/console?signed-out");
        assertThat(anna.get("/console/unresolved").statusCode()).isEqualTo(302);
    }

    @Test
    @DisplayName("the API keeps no session and still reads JSON only: only the console's forms are read as forms")
    void theApiStaysStatelessAndJsonOnly() throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        HttpResponse<String> listed = client.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://localhost:" + port + "/api/admin/unresolved"))
                .header("Authorization", "Bearer " + OPERATOR_KEY).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.headers().allValues("Set-Cookie")).isEmpty();

        HttpResponse<String> form = client.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://localhost:" + port + "/api/admin/refunds/rfd_x/abandon"))
                .header("Authorization", "Bearer " + OPERATOR_KEY)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("reason=x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(form.statusCode()).isEqualTo(415);
        assertThat(form.headers().allValues("Set-Cookie")).isEmpty();
    }
}
