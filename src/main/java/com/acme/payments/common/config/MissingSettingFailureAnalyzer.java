package com.acme.payments.common.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/** Turns a {@link MissingSetting} anywhere in the start-up failure into one line naming the variable. */
class MissingSettingFailureAnalyzer extends AbstractFailureAnalyzer<MissingSetting> implements Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE; // ahead of Boot's generic bind-failure analysis
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MissingSetting cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Set the environment variable " + cause.variable() + " and start again.", cause);
    }
}
