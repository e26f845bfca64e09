/**
 * The operators' console: server-rendered pages behind a key exchanged for a session, whose actions go through the
 * same orchestrators and stores as the API's and are audited under the signed-in key's name.
 */
package com.acme.payments.console;
