/** Billing: users and credits, subscription mirrors, the grant ledger, purchases, refunds, the read API and reconciliation. */
package com.acme.payments.billing;
