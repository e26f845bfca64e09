package com.acme.pspsim;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import sun.misc.Signal;

/**
 * The PSP sandbox simulator: a separate runnable living outside {@code com.acme.payments}, so the
 * service's component scan never sees it. It reads only {@code pspsim.yml} (never the service's
 * {@code application.yml}) and keeps its payments in memory: the JDBC and Flyway auto-configuration
 * that the shared classpath would bring are switched off, as are Spring Security's (its admin token is
 * {@code SimulatorAuthFilter}'s) and Thymeleaf's.
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.health.DataSourceHealthContributorAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.metrics.DataSourcePoolMetricsAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
        "org.springframework.boot.thymeleaf.autoconfigure.ThymeleafAutoConfiguration" })
@EnableConfigurationProperties({ SimulatorProperties.class, StripeSettings.class })
public class PspSimulatorApplication {

    /** The configuration file name the simulator reads ({@code pspsim.yml}, {@code pspsim-<profile>.yml}). */
    public static final String CONFIG_NAME = "pspsim";

    @Bean
    Clock pspsimClock() {
        return Clock.systemUTC();
    }

    public static void main(String[] args) {
        ConfigurableApplicationContext context = run(List.of(args), true);
        // SIGTERM (docker stop, the packaged-jar tests) is how the jar is stopped; the JVM's own handler exits
        // 143 even after a clean close. Closing the context first and exiting with Boot's code makes a clean
        // stop 0. Only the jar's main: an in-process start (start below) leaves the host's signals alone.
        Signal.handle(new Signal("TERM"), signal -> System.exit(SpringApplication.exit(context)));
    }

    /**
     * Starts the simulator in this JVM, e.g. from a development launcher or a test.
     *
     * @param port the HTTP port, {@code 0} for a random one (read it back from {@code local.server.port})
     * @param overrides properties that win over {@code pspsim.yml}, e.g. {@code pspsim.api-key},
     *        {@code pspsim.signing-key}, {@code pspsim.signature-encoding}, {@code pspsim.public-url}
     * @return the running simulator; {@code close()} it when done. The host's logging set-up is left
     *         alone (logging is JVM-wide: the simulator neither re-initialises nor cleans it up).
     */
    public static ConfigurableApplicationContext start(int port, Map<String, ?> overrides) {
        Map<String, Object> all = new LinkedHashMap<>(overrides);
        all.put("server.port", port);
        List<String> args = new ArrayList<>();
        all.forEach((key, value) -> args.add("--" + key + "=" + value));
        return run(args, false);
    }

    private static ConfigurableApplicationContext run(List<String> args, boolean ownLogging) {
        // Command-line arguments outrank the config file, so overrides always win over pspsim.yml.
        List<String> all = new ArrayList<>(args);
        all.add("--spring.config.name=" + CONFIG_NAME);
        SpringApplicationBuilder builder = new SpringApplicationBuilder(PspSimulatorApplication.class)
                .main(PspSimulatorApplication.class);
        if (!ownLogging) {
            SpringApplication app = builder.application();
            app.setListeners(app.getListeners().stream()
                    .filter(listener -> !(listener instanceof LoggingApplicationListener)).toList());
        }
        return builder.run(all.toArray(String[]::new));
    }
}
