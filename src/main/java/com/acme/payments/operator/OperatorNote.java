package com.acme.payments.operator;

import com.acme.payments.common.web.PlainText;

import jakarta.validation.constraints.Size;

/** The optional body of an operator action: why. The actor is the admin key's name, never the body's word. */
public record OperatorNote(@Size(max = 500) @PlainText String reason) {

    /** An action asked for without a word of why (a redrive, a sync). */
    public static final OperatorNote NONE = new OperatorNote(null);

    /** The note of an optional body: {@link #NONE} when the request had none. */
    public static OperatorNote of(OperatorNote body) {
        return body == null ? NONE : body;
    }

    /**
     * Tells the audit that this request's {@link Audited} action is asked for, for this reason: called once
     * the handler's 404 and 400 checks passed, before the action runs, so a refused request leaves no entry
     * and an action whose instance dies mid-way stays on record.
     */
    public void asked() {
        OperatorAudit.asked(this);
    }
}
