/** Refunds: caller-keyed, the amount reserved and committed before the PSP call, settled exactly once. */
package com.acme.payments.refund;
