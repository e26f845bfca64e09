package com.acme.payments.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
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

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "browser");

    private static ConfigurableApplicationContext simulator;
    private static ConfigurableApplicationContext service;
    private static String simulatorUrl;
    private static String serviceUrl;

    private ChromeDriver browser;
    private Path profile;

    /**
     * The simulator first (its URL is the PSP's), then an instance of the service on a port chosen
     * beforehand, because the PSP needs it for the webhook URL ({@code payments.checkout.public-url}).
     */
    @BeforeAll
    static void start() {
        if (!chromiumInstalled()) {
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
        Assumptions.assumeTrue(chromiumInstalled(),
                "headless Chromium is not installed: apt-get install -y chromium chromium-driver");
    }

    private static boolean chromiumInstalled() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    @AfterEach
    void closeBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
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

    private ChromeDriver startBrowser() throws IOException {
        profile = Files.createTempDirectory("chromium-profile-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // Root in a container: no sandbox; nothing may reach past this machine (no updates, sync, QUIC).
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1024,768", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
        return driver;
    }

    private void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, SCREENSHOTS.resolve("hosted-checkout-" + name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
