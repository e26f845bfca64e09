/** The outbox: side effects committed with the business change, and the relay that delivers them. */
package com.acme.payments.outbox;
