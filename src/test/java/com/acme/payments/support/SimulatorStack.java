package com.acme.payments.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.pspsim.PspSimulatorApplication;

/**
 * The PSP simulator and a service instance that talks to it over HTTP, both in this JVM on ports of their
 * own: what the end-to-end tests against the simulator's Gateway or Stripe surface start once per class.
 * Each side's settings may name the other's address (the service's for the simulator's webhooks, the
 * simulator's for the service's provider), so the service's port is chosen first.
 */
public final class SimulatorStack implements AutoCloseable {

    private final ConfigurableApplicationContext simulator;
    private final ConfigurableApplicationContext service;
    private final String simulatorUrl;
    private final String serviceUrl;
    private final String simulatorAdminToken;

    private SimulatorStack(ConfigurableApplicationContext simulator, ConfigurableApplicationContext service,
            String simulatorUrl, String serviceUrl, String simulatorAdminToken) {
        this.simulator = simulator;
        this.service = service;
        this.simulatorUrl = simulatorUrl;
        this.serviceUrl = serviceUrl;
        this.simulatorAdminToken = simulatorAdminToken;
    }

    /**
     * @param simulatorSettings the simulator's overrides, given the service's URL ({@code pspsim.admin-token}
     *        is set from {@code simulatorAdminToken})
     * @param serviceSettings the service's overrides, given its own URL and the simulator's ({@code server.port}
     *        is set)
     */
    public static SimulatorStack start(String simulatorAdminToken, Function<String, Map<String, Object>> simulatorSettings,
            BiFunction<String, String, Map<String, Object>> serviceSettings) {
        int port = freePort();
        String serviceUrl = "http://localhost:" + port;
        Map<String, Object> simulatorOverrides = new LinkedHashMap<>(simulatorSettings.apply(serviceUrl));
        simulatorOverrides.put("pspsim.admin-token", simulatorAdminToken);
        ConfigurableApplicationContext simulator = PspSimulatorApplication.start(0, simulatorOverrides);
        String simulatorUrl = "http://localhost:" + simulator.getEnvironment().getProperty("local.server.port");
        Map<String, Object> serviceOverrides = new LinkedHashMap<>(serviceSettings.apply(serviceUrl, simulatorUrl));
        serviceOverrides.put("server.port", port);
        try {
            ConfigurableApplicationContext service = Instances.start(serviceOverrides);
            return new SimulatorStack(simulator, service, simulatorUrl, serviceUrl, simulatorAdminToken);
        } catch (RuntimeException e) {
            simulator.close();
            throw e;
        }
    }

    /** The simulator's admin API ({@code /sim/**}), with its token. */
    public Http sim() {
        return new Http(simulatorUrl).bearer(simulatorAdminToken);
    }

    /** The service's API, no credential yet. */
    public Http api() {
        return new Http(serviceUrl);
    }

    public JdbcClient jdbc() {
        return service.getBean(JdbcClient.class);
    }

    public ConfigurableApplicationContext service() {
        return service;
    }

    public String simulatorUrl() {
        return simulatorUrl;
    }

    @Override
    public void close() {
        try {
            service.close();
        } finally {
            simulator.close();
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
