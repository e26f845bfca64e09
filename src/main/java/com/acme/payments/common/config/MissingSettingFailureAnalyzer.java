package com.acme.payments.common.config;

import java.util.List;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.validation.ObjectError;

/**
 * Turns a required setting that is absent into the one line the contract promises, naming the
 * environment variable and never a value: a properties record marks it
 * {@code @NotBlank(message = "PSP_API_KEY is not set")} (see {@link RequiredSetting}), or a value of the wrong
 * form {@code @AssertTrue(message = "SHOP_EVENTS_SECRET is invalid: …")}. Any other
 * constraint violation is left to Boot's own analysis, which names the property, value and reason.
 */
class MissingSettingFailureAnalyzer extends AbstractFailureAnalyzer<BindValidationException> implements Ordered {

    /** "X is not set", or "X is invalid: <what it must be>" for a value of the wrong form (never the value). */
    private static final Pattern MISSING = Pattern.compile("[A-Z][A-Z0-9_]* (is not set|is invalid: .+)");

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE; // ahead of Boot's generic bind-validation analysis
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindValidationException cause) {
        List<String> missing = cause.getValidationErrors().getAllErrors().stream()
                .map(ObjectError::getDefaultMessage)
                .filter(message -> message != null && MISSING.matcher(message).matches())
                .distinct().sorted().toList();
        if (missing.isEmpty()) {
            return null;
        }
        List<String> variables = missing.stream().map(m -> m.substring(0, m.indexOf(' '))).toList();
        return new FailureAnalysis(String.join("; ", missing),
                "Set the environment variable " + String.join(", ", variables) + " and start again.", cause);
    }
}
