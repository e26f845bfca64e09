package com.acme.payments.common.web;

import java.util.Optional;

/**
 * Recognises a presented key: the configured {@code SHOP_API_KEYS} and {@code ADMIN_API_KEYS}, and the keys
 * issued at run time. Compared in constant time; empty for a key no one holds (or one revoked).
 */
public interface KeyAuthenticator {

    Optional<KeyHolder> authenticate(String presentedKey);
}
