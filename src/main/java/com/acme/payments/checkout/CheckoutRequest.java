package com.acme.payments.checkout;

/** The optional body of {@code POST /api/orders/{orderRef}/checkout}. */
record CheckoutRequest(String returnUrl) {
}
