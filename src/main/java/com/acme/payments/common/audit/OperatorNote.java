package com.acme.payments.common.audit;

import jakarta.validation.constraints.Size;

/** The optional body of an operator action: why. The actor is the admin key's name, never the body's word. */
public record OperatorNote(@Size(max = 500) String reason) {

    /** The reason of an optional note: null when the body was empty. */
    public static String reasonOf(OperatorNote note) {
        return note == null ? null : note.reason();
    }
}
