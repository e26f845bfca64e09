/** Outbound HTTP without a thread per call: the JDK client, byte-array bodies, a whole-answer deadline. */
package com.acme.payments.common.http;
