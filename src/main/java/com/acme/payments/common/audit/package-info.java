/** The operator audit trail: who did what to which resource, when, and why. */
package com.acme.payments.common.audit;
