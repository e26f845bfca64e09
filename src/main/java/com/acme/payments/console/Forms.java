package com.acme.payments.console;

import com.acme.payments.operator.OperatorNote;

/** What the console's forms carry, read as the API reads its bodies. */
final class Forms {

    private Forms() {
    }

    /** An empty reason field is no reason, as an API body without one. */
    static OperatorNote note(OperatorNote form) {
        return form == null || form.reason() == null || form.reason().isBlank() ? OperatorNote.NONE : form;
    }
}
