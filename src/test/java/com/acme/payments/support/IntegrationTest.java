package com.acme.payments.support;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;

/**
 * Base for Spring + real PostgreSQL tests: the whole application on a random port, this run's own
 * database, WireMock as the PSP. Background jobs are off; tests call them through their beans.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
public abstract class IntegrationTest {

    @LocalServerPort
    protected int port;

    protected final WireMockServer psp = PspStub.server();

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", TestDatabase::url);
        registry.add("spring.datasource.username", TestDatabase::user);
        registry.add("spring.datasource.password", TestDatabase::password);
        registry.add("payments.psp.api-url", PspStub::baseUrl);
    }

    @BeforeEach
    void resetPspStub() {
        psp.resetAll();
    }

    protected Http http() {
        return new Http("http://localhost:" + port);
    }
}
