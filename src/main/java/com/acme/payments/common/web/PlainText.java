package com.acme.payments.common.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/**
 * An identifier, reference or reason of a request body: {@link RequestRules#isPlainText} (no control
 * character, no bidirectional override). Null passes; {@code @NotBlank} says whether it is required.
 */
@Documented
@Constraint(validatedBy = PlainText.Validator.class)
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
public @interface PlainText {

    String message() default "must not contain control characters (CR, LF, NUL, ESC, …) or bidirectional overrides";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Checks a {@link PlainText} value. */
    class Validator implements ConstraintValidator<PlainText, CharSequence> {
        @Override
        public boolean isValid(CharSequence value, ConstraintValidatorContext context) {
            return RequestRules.isPlainText(value);
        }
    }
}
