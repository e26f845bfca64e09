package com.acme.payments.common.security;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

import com.acme.payments.common.config.MissingSetting;

/**
 * The API keys: {@code SHOP_API_KEYS} for shop backends, {@code ADMIN_API_KEYS} for operators, each
 * comma-separated. The service refuses to start without them.
 */
@ConfigurationProperties("payments.auth")
public record AuthProperties(List<String> shopKeys, List<String> adminKeys) {

    public AuthProperties {
        shopKeys = clean(shopKeys, "SHOP_API_KEYS");
        adminKeys = clean(adminKeys, "ADMIN_API_KEYS");
    }

    private static List<String> clean(List<String> keys, String variable) {
        List<String> present = keys == null ? List.of()
                : keys.stream().map(String::trim).filter(k -> !k.isEmpty()).toList();
        if (present.isEmpty()) {
            throw new MissingSetting(variable);
        }
        return present;
    }

    @Override
    public String toString() {
        return "AuthProperties[shopKeys=" + shopKeys.size() + " keys, adminKeys=" + adminKeys.size() + " keys]";
    }
}
