package com.acme.payments.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.support.Http;
import com.acme.payments.support.Instances;
import com.acme.pspsim.PspSimulatorApplication;

import tools.jackson.databind.JsonNode;

/**
 * The demo's checkout walked by a real browser: an instance of the service (this run's database, the
 * in-process PSP simulator as its PSP)
 * creates an order and a checkout, headless Chromium opens the hosted page, clicks "Pay", lands on
 * the shop's return URL, and the simulator's signed webhook makes the order PAID.
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver} ({@code apt-get install -y chromium
 * chromium-driver}); skipped when {@code /usr/bin/chromium} or {@code /usr/bin/chromedriver} is absent.
 * Screenshots land in {@code target/browser/}.
 */
@Tag("browser")
class HostedCheckoutBrowserIntegrationTests {


    private static ConfigurableApplicationContext simulator;
    private static ConfigurableApplicationContext service;
    private static String simulatorUrl;
    private static String serviceUrl;

    private HeadlessChromium chromium;
    private ChromeDriver browser;

    /**
     * The simulator first (its URL is the PSP's), then an instance of the service on a port chosen
     * beforehand, because the PSP needs it for the webhook URL ({@code payments.checkout.public-url}).
     */
    @BeforeAll
    static void start() {
        if (!HeadlessChromium.installed()) {
            return; // each test reports itself skipped (an assumption here would hide it from the counts)
        }
        simulator = PspSimulatorApplication.start(0, Map.of(
                "pspsim.api-key", "test-psp-key",
                "pspsim.signing-key", "test-signing-key",
                "pspsim.signature-encoding", "hex"));
        simulatorUrl = "http://localhost:" + simulator.getEnvironment().getProperty("local.server.port");
        int port = freePort();
        serviceUrl = "http://localhost:" + port;
        service = Instances.start(Map.of(
                "server.port", port,
                "payments.checkout.public-url", serviceUrl,
                "payments.psp.api-url", simulatorUrl,
                "payments.checkout.return-url", simulatorUrl + "/sink/thank-you",
                "payments.checkout.return-url-prefixes", simulatorUrl + "/sink/"));
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (simulator != null) {
            simulator.close();
        }
    }

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
    @DisplayName("hosted page click: checkout, Pay in Chromium, back at the shop's return URL, order PAID by the webhook")
    void payOnTheHostedPage() throws IOException {
        String orderRef = "browser-" + UUID.randomUUID();
        Http.Response created = new Http(serviceUrl).bearer("test-shop-key").post("/api/orders", """
                {"orderRef":"%s","amount":"12.34","currency":"EUR",
                 "customer":{"referenceId":"cust-browser","email":"browser@example.com"}}""".formatted(orderRef));
        assertThat(created.status()).isEqualTo(201);
        Http frontend = new Http(serviceUrl).bearer(created.json().path("clientToken").asString());

        Http.Response checkout = frontend.post("/api/orders/" + orderRef + "/checkout", (String) null);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String redirectUrl = checkout.json().path("redirectUrl").asString();
        assertThat(redirectUrl).startsWith(simulatorUrl + "/hosted/");

        browser = startBrowser();
        browser.get(redirectUrl);
        assertThat(browser.getTitle()).isEqualTo("PSP simulator checkout");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Pay 12.34 EUR");
        screenshot("1-hosted-page");

        browser.findElement(By.id("pay")).click();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> browser.getCurrentUrl().startsWith(simulatorUrl + "/sink/thank-you"));
        assertThat(browser.findElement(By.tagName("body")).getText()).contains("Back at the shop.");
        screenshot("2-back-at-the-shop");

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> frontend.get("/api/orders/" + orderRef).json().path("status").asString(), "PAID"::equals);
        JsonNode order = frontend.get("/api/orders/" + orderRef).json();
        assertThat(order.path("paidAmount").asString()).isEqualTo("12.34");
        assertThat(order.path("paidCurrency").asString()).isEqualTo("EUR");
    }

    private ChromeDriver startBrowser() {
        chromium = HeadlessChromium.start(1024, 768);
        return chromium.driver();
    }

    private void screenshot(String name) {
        chromium.screenshot("hosted-checkout-" + name);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
