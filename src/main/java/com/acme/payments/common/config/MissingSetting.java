package com.acme.payments.common.config;

/**
 * A required setting (a secret or an endpoint) is absent. The message names the environment
 * variable an operator has to set, and nothing else: never a value.
 */
public final class MissingSetting extends IllegalStateException {

    private final String variable;

    public MissingSetting(String variable) {
        super(variable + " is not set");
        this.variable = variable;
    }

    public String variable() {
        return variable;
    }

    /** Throws when {@code value} is null or blank; returns it otherwise. */
    public static String require(String value, String variable) {
        if (value == null || value.isBlank()) {
            throw new MissingSetting(variable);
        }
        return value;
    }
}
