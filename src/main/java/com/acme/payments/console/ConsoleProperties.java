package com.acme.payments.console;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The operators' console ({@code payments.console.*}).
 *
 * @param sessionIdle how long a signed-in console session may sit unused before it ends (the operator signs in
 *        again); set on each session at sign-in
 */
@Validated
@ConfigurationProperties("payments.console")
record ConsoleProperties(@DefaultValue("30m") @DurationMin(seconds = 1) Duration sessionIdle) {
}
