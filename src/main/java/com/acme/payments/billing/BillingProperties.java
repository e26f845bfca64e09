package com.acme.payments.billing;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Billing settings: credits per granted subscription period ({@code billing.credits-per-period},
 * default 500), credits per one-off product ({@code billing.products.<productId>.credits}; none when
 * unset), the customer-portal link sent with payment-failed notices, and the nightly reconciliation.
 */
@ConfigurationProperties("billing")
public record BillingProperties(Long creditsPerPeriod, Map<String, Product> products, String portalUrl,
        Reconciliation reconciliation) {

    public BillingProperties {
        creditsPerPeriod = creditsPerPeriod == null ? 500L : creditsPerPeriod;
        products = products == null ? Map.of() : Map.copyOf(products);
        portalUrl = portalUrl == null || portalUrl.isBlank() ? null : portalUrl.strip();
        reconciliation = reconciliation == null ? new Reconciliation(null, null) : reconciliation;
        if (creditsPerPeriod < 0) {
            throw new IllegalArgumentException("billing.credits-per-period must not be negative");
        }
    }

    /** Credits a purchase of the product adds; zero when the product is not configured. */
    long creditsFor(String productId) {
        Product product = productId == null ? null : products.get(productId);
        return product == null || product.credits() == null ? 0 : Math.max(0, product.credits());
    }

    public record Product(Long credits) {
    }

    /**
     * The nightly repair; {@code enabled} is false in tests, which call the job bean directly. {@code lease}
     * (default 6h) is how long the night's runner is trusted before another instance may take the night
     * over: longer than the slowest pass, since a takeover means a second pass.
     */
    public record Reconciliation(Boolean enabled, Duration lease) {
        public Reconciliation {
            enabled = enabled == null || enabled;
            lease = lease == null ? Duration.ofHours(6) : lease;
            if (lease.isNegative() || lease.isZero()) {
                throw new IllegalArgumentException("billing.reconciliation.lease must be positive");
            }
        }
    }
}
