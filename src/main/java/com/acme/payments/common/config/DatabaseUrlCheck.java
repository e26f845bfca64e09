package com.acme.payments.common.config;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.NotBlank;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * {@code SPRING_DATASOURCE_URL} is required: application.yml gives it no default (never a silent localhost),
 * and an unset one stops the start with the contract's one line, like every other required setting. Checked
 * as the context starts, before any bean — a DataSource built from an empty URL would fail first with Boot's
 * own multi-line "Failed to configure a DataSource" that names no variable. The development launcher and the
 * tests supply a URL.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseUrlCheck {

    @Bean
    static BeanFactoryPostProcessor requireDatabaseUrl(Environment environment) {
        return beanFactory -> {
            try (ValidatorFactory validators = Validation.buildDefaultValidatorFactory()) {
                Binder.get(environment).bindOrCreate("spring.datasource", Bindable.of(DatabaseUrl.class),
                        new ValidationBindHandler(new SpringValidatorAdapter(validators.getValidator())));
            }
        };
    }

    /** The one datasource setting without a default; a bind-validation failure reaches MissingSettingFailureAnalyzer. */
    record DatabaseUrl(@NotBlank(message = RequiredSetting.SPRING_DATASOURCE_URL) String url) {
    }
}
