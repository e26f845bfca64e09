package com.acme.payments.common.security;

import java.util.List;

import jakarta.validation.constraints.NotEmpty;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * The API keys ({@code payments.auth.*}). The service refuses to start without at least one of each.
 *
 * @param shopKeys bearer keys of shop backends ({@code SHOP_API_KEYS}, comma-separated); required
 * @param adminKeys bearer keys of operators ({@code ADMIN_API_KEYS}, comma-separated); required
 */
@Validated
@ConfigurationProperties("payments.auth")
public record AuthProperties(@NotEmpty(message = RequiredSetting.SHOP_API_KEYS) List<String> shopKeys,
        @NotEmpty(message = RequiredSetting.ADMIN_API_KEYS) List<String> adminKeys) {

    public AuthProperties {
        shopKeys = clean(shopKeys);
        adminKeys = clean(adminKeys);
    }

    /** Blank entries ("a,,b", a trailing comma) are no keys; validation then sees what is left. */
    private static List<String> clean(List<String> keys) {
        return keys == null ? List.of() : keys.stream().map(String::trim).filter(k -> !k.isEmpty()).toList();
    }

    @Override
    public String toString() {
        return "AuthProperties[shopKeys=" + shopKeys.size() + " keys, adminKeys=" + adminKeys.size() + " keys]";
    }
}
