/** A stand-in for the PSP Gateway and for Stripe (Checkout Sessions, PaymentIntents, refunds, signed events): their APIs, hosted pages, webhooks, fault injection and an outbound sink. */
package com.acme.pspsim;
