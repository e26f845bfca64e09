/**
 * Access keys: the keys issued and revoked at run time (their table, their API, the per-instance cache every
 * request is checked against, their last use) and the one {@code KeyAuthenticator} answering for them and the
 * configured keys together.
 */
package com.acme.payments.access;
