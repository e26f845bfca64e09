/**
 * Orders: creation, the per-order client token, the order view, and the status whitelist payments move
 * them by. A payment reaches an order as a {@link com.acme.payments.order.PaymentReport}, in the order's
 * words: the providers map into it, and nothing here knows a provider.
 */
package com.acme.payments.order;
