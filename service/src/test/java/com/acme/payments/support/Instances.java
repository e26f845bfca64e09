package com.acme.payments.support;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.acme.payments.PaymentsApplication;

/**
 * Starts extra "instances" of the service in this JVM: each its own application context, connection
 * pool and scheduler, against this run's database and PSP stub — as two pods would share them.
 */
public final class Instances {

    private Instances() {
    }

    public static ConfigurableApplicationContext start(Map<String, Object> overrides) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", TestDatabase.url());
        properties.put("spring.datasource.username", TestDatabase.user());
        properties.put("spring.datasource.password", TestDatabase.password());
        properties.put("payments.psp.api-url", PspStub.baseUrl());
        properties.put("server.port", "0");
        properties.putAll(overrides);
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(PaymentsApplication.class).profiles("test").run(args);
    }
}
