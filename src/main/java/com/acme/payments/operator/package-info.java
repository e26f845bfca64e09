/** What operators see and do across features: the list of unresolved work, the audit of their actions (who, what, which resource, why, outcome). */
package com.acme.payments.operator;
