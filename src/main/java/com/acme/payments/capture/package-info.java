/** Capture and void of an authorized payment: an operation row committed before the PSP call, settled by the payment's confirmed state. */
package com.acme.payments.capture;
