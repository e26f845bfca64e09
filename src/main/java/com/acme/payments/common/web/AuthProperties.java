package com.acme.payments.common.web;

import java.util.List;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import com.acme.payments.common.config.RequiredSetting;

/**
 * The API keys ({@code payments.auth.*}). The service refuses to start without at least one of each.
 *
 * @param shopKeys bearer keys of shop backends ({@code SHOP_API_KEYS}, comma-separated), each holding scope
 *        {@code orders}; required
 * @param adminKeys bearer keys of operators ({@code ADMIN_API_KEYS}, comma-separated, {@code name:key} names the
 *        actor), each holding every scope; required. More keys are issued at run time ({@code POST /api/admin/keys})
 * @param shopOrigins browser origins of the shop's frontend ({@code SHOP_ORIGINS}, comma-separated, e.g.
 *        {@code https://shop.example.com}): CORS on the client-token endpoints only ({@link ShopOriginsCors});
 *        unset: no origin, no CORS. Scheme, host and port only: no path, no wildcard
 */
@Validated
@ConfigurationProperties("payments.auth")
public record AuthProperties(@NotEmpty(message = RequiredSetting.SHOP_API_KEYS) List<String> shopKeys,
        @NotEmpty(message = RequiredSetting.ADMIN_API_KEYS) List<String> adminKeys,
        List<@Pattern(regexp = "https?://[^/\\s*]+", message = "must be an origin: scheme://host[:port], no path") String> shopOrigins) {

    public AuthProperties {
        shopKeys = clean(shopKeys);
        adminKeys = clean(adminKeys);
        shopOrigins = clean(shopOrigins).stream().map(o -> o.replaceFirst("/+$", "")).toList();
    }

    /** Blank entries ("a,,b", a trailing comma) are no keys; validation then sees what is left. */
    private static List<String> clean(List<String> keys) {
        return keys == null ? List.of() : keys.stream().map(String::trim).filter(k -> !k.isEmpty()).toList();
    }

    @Override
    public String toString() {
        return "AuthProperties[shopKeys=" + shopKeys.size() + " keys, adminKeys=" + adminKeys.size() + " keys, shopOrigins=" + shopOrigins + "]";
    }
}
