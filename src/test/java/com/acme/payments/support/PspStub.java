package com.acme.payments.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;

/**
 * One WireMock server standing in for the PSP (and for outbound sinks), shared by every test in the
 * JVM. h2c is disabled: Boot 4's JDK client would otherwise try to upgrade plain HTTP connections.
 */
public final class PspStub {

    private static WireMockServer server;

    private PspStub() {
    }

    public static synchronized WireMockServer server() {
        if (server == null) {
            server = new WireMockServer(WireMockConfiguration.options()
                    .dynamicPort()
                    .http2PlainDisabled(true)
                    .containerThreads(40)
                    .jettyStopTimeout(1000L));
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "stop-wiremock"));
        }
        return server;
    }

    public static String baseUrl() {
        return server().baseUrl();
    }
}
