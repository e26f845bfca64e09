package com.acme.payments.billing;

import java.time.Duration;
import java.time.Duration;
import java.util.Map;

import jakarta.validation.constraints.PositiveOrZero;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
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
     * @param enabled whether this instance runs the nightly reconciliation (its schedule:
     *        {@code billing.reconciliation.cron}, default {@code 0 17 3 * * *} UTC)
     * @param lease how long the night's runner is trusted before another instance may take the night over:
     *        longer than the slowest pass, since a takeover means a second pass
     */
    public record Reconciliation(@DefaultValue("true") Boolean enabled,
            @DefaultValue("6h") @DurationMin(millis = 1) Duration lease) {
    }
}
