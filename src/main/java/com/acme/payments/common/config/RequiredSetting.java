package com.acme.payments.common.config;

/**
 * The message of a required setting's constraint: {@code @NotBlank(message = RequiredSetting.PSP_API_KEY)}.
 * It must read {@code <VARIABLE> is not set}, which {@link MissingSettingFailureAnalyzer} turns into the
 * contract's one start-up line. One constant per variable, so a typo cannot name the wrong one.
 */
public final class RequiredSetting {

    public static final String PSP_API_URL = "PSP_API_URL is not set";
    public static final String PSP_API_KEY = "PSP_API_KEY is not set";
    public static final String PSP_SIGNING_KEY = "PSP_SIGNING_KEY is not set";
    public static final String STRIPE_API_KEY = "STRIPE_API_KEY is not set";
    public static final String STRIPE_WEBHOOK_SECRET = "STRIPE_WEBHOOK_SECRET is not set";
    public static final String SHOP_API_KEYS = "SHOP_API_KEYS is not set";
    public static final String ADMIN_API_KEYS = "ADMIN_API_KEYS is not set";
    public static final String APP_PUBLIC_URL = "APP_PUBLIC_URL is not set";
    public static final String SHOP_RETURN_URL = "SHOP_RETURN_URL is not set";
    public static final String SPRING_DATASOURCE_URL = "SPRING_DATASOURCE_URL is not set";

    private RequiredSetting() {
    }
}
