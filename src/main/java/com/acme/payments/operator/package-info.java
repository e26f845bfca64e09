/** What operators see and do across features: the list of unresolved work, the audit of their actions. */
package com.acme.payments.operator;
