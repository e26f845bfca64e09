package com.acme.payments.browser;

import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.findCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import com.acme.payments.console.ConsoleFixtures;

/**
 * The operators' console in headless Chromium: an operator signs in, finds a stuck refund, abandons it with a
 * reason, sees it leave the list and signs out; a read-only key sees no action and is refused (403) when its
 * session posts one anyway with its own CSRF token; an operator starts a reconciliation run and reads it, and
 * issues and revokes a key. Screenshots of the main pages land in {@code target/browser/}
 * ({@code console-unresolved.png} is the README's).
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver}; skipped when either is absent.
 */
@Tag("browser")
class ConsoleBrowserIntegrationTests extends ConsoleFixtures {


    private HeadlessChromium chromium;
    private ChromeDriver browser;

    @BeforeEach
    void requireChromium() {
        Assumptions.assumeTrue(HeadlessChromium.installed(), HeadlessChromium.NOT_INSTALLED);
    }

    @AfterEach
    void closeBrowser() throws IOException {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    @DisplayName("an operator signs in, abandons a stuck refund with a reason, sees it leave the list, signs out")
    void operatorAbandonsAStuckRefund() {
        StuckRefund stuck = stuckRefund("20.00");
        browser = startBrowser();
        browser.get(base() + "/console");
        screenshot("console-sign-in");
        signIn(OPERATOR_KEY);

        assertThat(browser.getCurrentUrl()).endsWith("/console/unresolved");
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("anna");
        WebElement row = row(stuck.referenceId());
        assertThat(row.getText()).contains("refund").contains(stuck.orderRef()).contains("UNKNOWN").contains("UTC");
        screenshot("console-unresolved");

        row.findElement(By.name("reason")).sendKeys("PSP support: never created");
        row.findElement(By.cssSelector("button[type=submit]")).click();
        assertThat(browser.findElement(By.id("done")).getText()).contains(stuck.referenceId()).contains("abandoned");
        assertThat(browser.findElements(By.cssSelector("tr[data-reference='" + stuck.referenceId() + "']")))
                .as("it left the list").isEmpty();
        assertThat(refundState(stuck.referenceId())).isEqualTo("FAILED");
        screenshot("console-abandoned");

        browser.get(base() + "/console/orders/" + stuck.orderRef());
        assertThat(browser.findElement(By.id("refunds")).getText()).contains("FAILED").contains("20.00 EUR")
                .contains("abandoned by anna");
        screenshot("console-order");
        browser.get(base() + "/console/orders");
        screenshot("console-orders");
        browser.get(base() + "/console/dead-effects");
        screenshot("console-dead-effects");
        browser.get(base() + "/console/discrepancies");
        screenshot("console-discrepancies");

        browser.findElement(By.id("sign-out")).click();
        assertThat(browser.findElement(By.id("signed-out")).getText()).isEqualTo("Signed out.");
        browser.get(base() + "/console/unresolved");
        assertThat(browser.findElement(By.id("key")).isDisplayed()).as("back at the sign-in page").isTrue();
    }

    @Test
    @DisplayName("a read-only key sees no action buttons, and an action posted anyway from its session is 403")
    void readOnlyKeySeesNoActions() throws Exception {
        StuckRefund stuck = stuckRefund("20.00");
        browser = startBrowser();
        browser.get(base() + "/console");
        signIn(READ_KEY);

        assertThat(browser.findElement(By.id("read-only")).getText()).isEqualTo("read-only");
        WebElement row = row(stuck.referenceId());
        assertThat(row.findElements(By.tagName("button"))).isEmpty();
        assertThat(browser.findElements(By.xpath("//button[normalize-space()='Abandon']"))).isEmpty();
        screenshot("console-read-only");

        // what a hand-made form would send: this session's cookie and its CSRF token (from the sign-out form)
        String csrf = browser.findElement(By.name("_csrf")).getDomProperty("value");
        Cookie session = browser.manage().getCookieNamed("CONSOLE_SESSION");
        HttpResponse<String> posted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(base() + "/console/refunds/" + stuck.referenceId() + "/abandon"))
                .header("Cookie", "CONSOLE_SESSION=" + session.getValue())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("reason=mine&_csrf=" + csrf, StandardCharsets.UTF_8))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).isEqualTo(403);
        assertThat(refundState(stuck.referenceId())).isEqualTo("UNKNOWN");
        browser.navigate().refresh();
        assertThat(row(stuck.referenceId()).getText()).contains("UNKNOWN");
    }

    @Test
    @DisplayName("an operator starts a reconciliation run and reads it, then issues a key (shown once) and revokes it")
    void operatorReconcilesAndManagesKeys() {
        psp.stubFor(findCall().withQueryParam("createdAt.gte", matching(".+")).willReturn(okJson(envelope(
                "{\"items\":[" + payment("pay-unseen-" + System.nanoTime(), null, "DEPOSIT", "COMPLETED", "12.00", "EUR")
                        + "],\"page\":0,\"hasNext\":false}"))));
        browser = startBrowser();
        browser.get(base() + "/console");
        signIn(OPERATOR_KEY);

        browser.findElement(By.linkText("Reconciliations")).click();
        WebElement start = loaded(By.id("start-reconciliation"));
        start.findElement(By.name("from")).sendKeys(LocalDateTime.ofInstant(Instant.now(), ZoneOffset.UTC).toString());
        start.findElement(By.name("to")).sendKeys(Instant.now().plusSeconds(60).toString());
        start.findElement(By.cssSelector("button[type=submit]")).click();
        assertThat(loaded(By.id("done")).getText()).contains("started");
        String runPage = browser.getCurrentUrl();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            browser.get(runPage);
            return browser.findElement(By.id("run-state")).getText().equals("done");
        });
        assertThat(browser.findElement(By.id("mismatches")).getText()).contains("missing_here").contains("12.00 EUR");
        screenshot("console-reconciliation");
        browser.findElement(By.linkText("All runs")).click();
        assertThat(loaded(By.id("reconciliations")).getText()).contains("anna").contains("done");
        screenshot("console-reconciliations");

        browser.findElement(By.id("nav-keys")).click();
        WebElement issue = loaded(By.id("issue-key"));
        String name = "warehouse-sync-" + System.nanoTime() % 10_000;
        issue.findElement(By.name("name")).sendKeys(name);
        issue.findElement(By.cssSelector("input[name=scopes][value=orders]")).click();
        issue.findElement(By.cssSelector("input[name=scopes][value=read]")).click();
        issue.findElement(By.cssSelector("button[type=submit]")).click();
        assertThat(loaded(By.id("store-it-now")).getText()).contains("never shown again");
        String key = browser.findElement(By.id("new-key")).getText();
        assertThat(key).startsWith("pk_");
        screenshot("console-key-issued");

        browser.findElement(By.linkText("All keys")).click();
        loaded(By.id("keys"));
        assertThat(browser.getPageSource()).contains(name).doesNotContain(key);
        screenshot("console-keys");
        browser.findElement(By.xpath("//tr[td[normalize-space()='" + name + "']]//button[normalize-space()='Revoke']"))
                .click();
        assertThat(loaded(By.id("done")).getText()).contains(name + " revoked");
    }

    /** The element once the page a click asked for has loaded: a click returns before its navigation ends. */
    private WebElement loaded(By element) {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> browser.findElement(element), found -> found != null);
    }

    private void signIn(String key) {
        browser.findElement(By.id("key")).sendKeys(key);
        browser.findElement(By.id("sign-in")).click();
        loaded(By.id("who"));
    }

    private WebElement row(String referenceId) {
        return browser.findElement(By.cssSelector("tr[data-reference='" + referenceId + "']"));
    }

    private String base() {
        return "http://localhost:" + port;
    }

    private ChromeDriver startBrowser() {
        chromium = HeadlessChromium.start(1280, 800);
        return chromium.driver();
    }

    private void screenshot(String name) {
        chromium.screenshot(name);
    }
}
