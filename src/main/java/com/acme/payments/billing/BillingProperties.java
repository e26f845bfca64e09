package com.acme.payments.billing;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

import jakarta.validation.constraints.PositiveOrZero;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.validation.annotation.Validated;

/**
 * Billing settings ({@code billing.*}).
 *
 * @param creditsPerPeriod credits each granted subscription period adds
 * @param products credits per one-off product ({@code billing.products.<productId>.credits}); a product
 *        not listed adds none
 * @param portalUrl the customer-portal link sent with payment-failed notices; unset: none is sent
 * @param reconciliation the nightly repair from Stripe's invoices
 */
@Validated
@ConfigurationProperties("billing")
public record BillingProperties(@DefaultValue("500") @PositiveOrZero Long creditsPerPeriod,
        Map<String, Product> products, String portalUrl, @DefaultValue Reconciliation reconciliation) {

    public BillingProperties {
        products = products == null ? Map.of() : Map.copyOf(products);
        portalUrl = portalUrl == null || portalUrl.isBlank() ? null : portalUrl.strip();
    }

    /** Credits a purchase of the product adds; zero when the product is not configured. */
    long creditsFor(String productId) {
        Product product = productId == null ? null : products.get(productId);
        return product == null || product.credits() == null ? 0 : Math.max(0, product.credits());
    }

    /** @param credits credits one purchase of the product adds */
    public record Product(Long credits) {
    }

    /**
     * The nightly repair; {@code enabled} is false in tests, which call the job bean directly.
     *
     * @param enabled whether this instance runs the nightly reconciliation
     * @param cron when the night's pass becomes due (Spring cron, UTC; its first firing of each UTC day):
     *        from then on, every {@code check-interval}, each instance starts the night's pass unless it is
     *        finished or another instance holds it, so a night whose runner died is finished by another
     *        instance the same night, and a night every instance missed at the firing is still run
     * @param checkInterval how often each instance looks whether the night's pass is due and free
     * @param lease how long the night's runner holds the night without renewing it; the runner renews it
     *        after each subscription, so it must outlast one subscription's sync (a few Stripe calls, each
     *        bounded by the read timeout). A runner that dies is taken over about this long later
     */
    public record Reconciliation(@DefaultValue("true") Boolean enabled,
            @DefaultValue("0 17 3 * * *") String cron,
            @DefaultValue("5m") @DurationMin(seconds = 1) Duration checkInterval,
            @DefaultValue("10m") @DurationMin(seconds = 1) Duration lease) {

        public Reconciliation {
            if (!CronExpression.isValidExpression(cron)) {
                throw new IllegalArgumentException("billing.reconciliation.cron is not a cron expression: " + cron);
            }
        }

        /** When the night's pass becomes due: the cron's first firing that UTC day, if it fires that day. */
        Optional<ZonedDateTime> dueAt(LocalDate night) {
            ZonedDateTime first = CronExpression.parse(cron).next(night.atStartOfDay(ZoneOffset.UTC).minusNanos(1));
            return Optional.ofNullable(first).filter(at -> at.toLocalDate().equals(night));
        }
    }
}
