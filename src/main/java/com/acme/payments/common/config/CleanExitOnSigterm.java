package com.acme.payments.common.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import sun.misc.Signal;

/**
 * SIGTERM (docker stop, Kubernetes, systemd) is how the service is asked to stop. The JVM's own handler
 * exits with 143 even after a clean graceful shutdown, so an orchestrator cannot tell a clean stop from a
 * crash. This handler closes the context first — Tomcat drains in-flight requests, the jobs stop taking
 * rows (bounded by {@code spring.lifecycle.timeout-per-shutdown-phase}) — then exits with Boot's exit code:
 * 0 when the close succeeded, non-zero when it failed.
 */
public final class CleanExitOnSigterm {

    private static final Logger log = LoggerFactory.getLogger(CleanExitOnSigterm.class);

    private CleanExitOnSigterm() {
    }

    public static void install(ConfigurableApplicationContext context) {
        Signal.handle(new Signal("TERM"), signal -> {
            log.info("SIGTERM received: stopping gracefully");
            System.exit(SpringApplication.exit(context));
        });
    }
}
