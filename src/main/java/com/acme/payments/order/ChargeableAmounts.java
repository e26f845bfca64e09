package com.acme.payments.order;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Which amounts the active payment provider can charge exactly, in the order's words: asked before an
 * order is stored, so an order no checkout could ever pay is refused at creation (422
 * {@code amount-not-supported}). The provider side implements it; the order knows no provider.
 */
public interface ChargeableAmounts {

    /** Why this amount cannot be charged (for the problem's detail); empty when it can. */
    Optional<String> refuses(BigDecimal amount, String currency);
}
