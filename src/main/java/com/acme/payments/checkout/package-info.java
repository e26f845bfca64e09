/** Checkout: payment attempts against the PSP, claimed before the call, resolved by reference when unknown. */
package com.acme.payments.checkout;
