package com.acme.payments.access;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.ConfiguredKeys;
import com.acme.payments.common.web.KeyAuthenticator;
import com.acme.payments.common.web.KeyHolder;
import com.acme.payments.common.web.KeysUnverifiable;
import com.acme.payments.common.web.Secrets;

/**
 * The one {@link KeyAuthenticator}: the configured keys and the keys issued at run time. Both are always
 * asked (the configured ones in constant time over all of them; the issued ones by the key's SHA-256, a
 * value an attacker cannot steer), so the time taken says nothing of which kind matched; a configured key
 * wins. An issued key's use is noted for its {@code lastUsedAt}.
 */
@Component
class Keys implements KeyAuthenticator {

    private static final int MAX_LENGTH = 512;

    private final ConfiguredKeys configured;
    private final IssuedKeys issued;
    private final KeyUsage usage;

    Keys(ConfiguredKeys configured, IssuedKeys issued, KeyUsage usage) {
        this.configured = configured;
        this.issued = issued;
        this.usage = usage;
    }

    @Override
    public Optional<KeyHolder> authenticate(String presentedKey) {
        if (presentedKey == null || presentedKey.isEmpty() || presentedKey.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        byte[] hash = Secrets.sha256(presentedKey);
        Optional<KeyHolder> fromSettings = configured.find(hash);
        Optional<ApiKeyStore.ActiveKey> fromTable;
        try {
            fromTable = issued.find(hash);
        } catch (KeysUnverifiable e) {
            if (fromSettings.isPresent() || !presentedKey.startsWith(KeyIssuer.PREFIX)) {
                return fromSettings; // a configured key, or no issued one (an order's token, garbage)
            }
            throw e;
        }
        if (fromSettings.isPresent()) {
            return fromSettings;
        }
        return fromTable.map(key -> {
            usage.used(key.id());
            return new KeyHolder(key.name(), key.scopes());
        });
    }
}
