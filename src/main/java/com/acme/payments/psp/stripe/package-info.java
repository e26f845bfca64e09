/**
 * Stripe as the payment provider ({@code PSP_PROVIDER=stripe}): the adapter of the provider port, the
 * mapping of Stripe's objects into ours, and Stripe's currency table. Stripe Billing is {@code stripe}.
 */
package com.acme.payments.psp.stripe;
