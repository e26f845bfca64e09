package com.acme.payments.checkout;

import jakarta.validation.constraints.Size;

/** The optional body of the abandon call: who confirmed with the PSP, and why. */
record AbandonRequest(@Size(max = 100) String operator, @Size(max = 500) String reason) {
}
