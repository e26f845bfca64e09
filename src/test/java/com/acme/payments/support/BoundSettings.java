package com.acme.payments.support;

import java.util.Map;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * Binds a properties record the way the service does at start-up — {@code @DefaultValue}s, relaxed names,
 * bean validation — from a few values, so unit tests see the real defaults and the real refusals.
 */
public final class BoundSettings {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

    private BoundSettings() {
    }

    public static <T> T bind(Class<T> type, String prefix, Map<String, ?> values) {
        Binder binder = new Binder(new MapConfigurationPropertySource(values));
        return binder.bindOrCreate(prefix, Bindable.of(type),
                new ValidationBindHandler(new SpringValidatorAdapter(VALIDATION.getValidator())));
    }
}
