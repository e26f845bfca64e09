/** Stripe's edge: the signed webhook endpoint, the event idempotency store, event dispatch and the Stripe API client. */
package com.acme.payments.stripe;
