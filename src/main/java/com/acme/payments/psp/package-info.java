/** The payment provider: its HTTP client, the classification of its answers, and its webhook inbox. */
package com.acme.payments.psp;
