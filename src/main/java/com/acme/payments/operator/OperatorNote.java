package com.acme.payments.operator;

import jakarta.validation.constraints.Size;

/** The optional body of an operator action: why. The actor is the admin key's name, never the body's word. */
public record OperatorNote(@Size(max = 500) String reason) {
}
