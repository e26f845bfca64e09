/** Second charges: a payment the PSP completed for an order another payment already paid (table {@code duplicate_charge}), listed for the operator and refunded through the refund flow. */
package com.acme.payments.secondcharge;
