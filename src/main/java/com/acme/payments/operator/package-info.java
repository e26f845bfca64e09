/** What operators do and see: the audit trail of their actions (who, what, which resource, why, outcome). */
package com.acme.payments.operator;
