/**
 * Discrepancies: money that moved in a way no rule allows (over-refunds, contradicting reports, unrefunded
 * second charges), recorded once, counted, sent to the notify sink and listed for an operator.
 */
package com.acme.payments.discrepancy;
