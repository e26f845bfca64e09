/** A stand-in for the PSP Gateway: its API, hosted page, signed webhooks, fault injection and an outbound sink. */
package com.acme.pspsim;
