package com.acme.payments;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

import com.acme.payments.common.config.CleanExitOnSigterm;

/** The payments service: PSP checkout, refunds, webhooks, Stripe billing and the outbox relay. */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class PaymentsApplication {

    public static void main(String[] args) {
        CleanExitOnSigterm.install(SpringApplication.run(PaymentsApplication.class, args));
    }
}
