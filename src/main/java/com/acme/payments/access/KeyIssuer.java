package com.acme.payments.access;

import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Secrets;

/**
 * Issues and revokes keys at run time. A key is {@code pk_} and 32 random bytes (URL-safe base64); only its
 * SHA-256 is stored, and the key is handed out once. This instance's copy of the keys follows at once; the
 * others on their next read ({@link IssuedKeys}).
 */
@Component
class KeyIssuer {

    static final String PREFIX = "pk_";
    private static final Logger log = LoggerFactory.getLogger(KeyIssuer.class);

    private final ApiKeyStore store;
    private final IssuedKeys issued;

    KeyIssuer(ApiKeyStore store, IssuedKeys issued) {
        this.store = store;
        this.issued = issued;
    }

    /** The new key's row and the key itself (shown in this answer only). */
    Issued issue(String name, Set<Scope> scopes, String actor) {
        String key = PREFIX + Secrets.newToken();
        byte[] hash = Secrets.sha256(key);
        ApiKeyStore.ApiKey row = store.insert(name, scopes, hash, actor);
        issued.issued(new ApiKeyStore.ActiveKey(row.id(), row.name(), row.scopes(), hash));
        log.info("key {} ({}) issued by {} with scopes {}", row.id(), row.name(), actor, scopes);
        return new Issued(row, key);
    }

    /** The key's row once revoked (the first revocation's time when it already was). */
    ApiKeyStore.ApiKey revoke(long id, String actor) {
        boolean now = store.revoke(id, actor);
        issued.revoked(id);
        if (now) {
            log.info("key {} revoked by {}", id, actor);
        }
        return store.find(id).orElseThrow(() -> new IllegalStateException("api_key " + id + " vanished"));
    }

    record Issued(ApiKeyStore.ApiKey row, String key) {

        @Override
        public String toString() {
            return "Issued[id=" + row.id() + "]";
        }
    }
}
