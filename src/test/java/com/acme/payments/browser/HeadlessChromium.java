package com.acme.payments.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven by its chromedriver, with a profile of its own that is deleted on close;
 * screenshots land in {@code target/browser/}. The browser tests skip themselves where it is not installed.
 */
final class HeadlessChromium implements AutoCloseable {

    static final String NOT_INSTALLED = "headless Chromium is not installed: apt-get install -y chromium chromium-driver";

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "browser");

    private final Path profile;
    private final ChromeDriver driver;

    private HeadlessChromium(Path profile, ChromeDriver driver) {
        this.profile = profile;
        this.driver = driver;
    }

    static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** A browser whose window is {@code width} × {@code height}. */
    static HeadlessChromium start(int width, int height) {
        Path profile;
        try {
            profile = Files.createTempDirectory("chromium-profile-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // Root in a container: no sandbox; nothing may reach past this machine (no updates, sync, QUIC).
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=" + width + "," + height, "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
        return new HeadlessChromium(profile, driver);
    }

    ChromeDriver driver() {
        return driver;
    }

    /** The page as it is now, as {@code target/browser/<name>.png}. */
    void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
