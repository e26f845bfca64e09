/**
 * The ledger: every money movement (payments, refunds and their failures, refunds made elsewhere, second
 * charges and their refunds) in a window, exported as CSV for finance; it reads the other features' tables and
 * owns none.
 */
package com.acme.payments.ledger;
