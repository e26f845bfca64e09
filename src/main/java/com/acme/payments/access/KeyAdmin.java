package com.acme.payments.access;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Scope;

/**
 * The keys issued at run time for the console, through the API's {@link KeyIssuer} and {@link ApiKeyStore}: list
 * them, issue one (the key in the answer only), revoke one (404 for an id that names none). The scope names are
 * read as the API reads them.
 */
@Component
public class KeyAdmin {

    private static final String SCOPE_NAMES = Stream.of(Scope.values()).map(Scope::wireName)
            .collect(Collectors.joining(", "));

    private final KeyIssuer issuer;
    private final ApiKeyStore store;

    KeyAdmin(KeyIssuer issuer, ApiKeyStore store) {
        this.issuer = issuer;
        this.store = store;
    }

    /** The scopes these wire names name, or the API's 400 on {@code scopes}. */
    public static Set<Scope> scopes(List<String> names) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : names) {
            Optional<Scope> scope = Scope.fromWireName(name);
            if (scope.isEmpty()) {
                throw Problems.ValidationFailed.of("scopes", "must each be one of " + SCOPE_NAMES);
            }
            scopes.add(scope.get());
        }
        return scopes;
    }

    /** Every issued key, revoked ones too; never a key. */
    public List<Key> all() {
        return store.all().stream().map(Key::of).toList();
    }

    /** The key an operator named, or 404 (an id that is not a number names none). */
    public Key find(String id) {
        try {
            return store.find(Long.parseLong(id)).map(Key::of).orElseThrow(() -> new Problems.NotFound("Key"));
        } catch (NumberFormatException notAnId) {
            throw new Problems.NotFound("Key");
        }
    }

    public Issued issue(String name, Set<Scope> scopes, String actor) {
        KeyIssuer.Issued issued = issuer.issue(name, scopes, actor);
        return new Issued(Key.of(issued.row()), issued.key());
    }

    /** The key once revoked (the first revocation's time when it already was). */
    public Key revoke(long id, String actor) {
        return Key.of(issuer.revoke(id, actor));
    }

    /** A key as listed: never the key. */
    public record Key(long id, String name, Set<Scope> scopes, Instant createdAt, Instant lastUsedAt,
            Instant revokedAt) {

        static Key of(ApiKeyStore.ApiKey row) {
            return new Key(row.id(), row.name(), row.scopes(), row.createdAt(), row.lastUsedAt(), row.revokedAt());
        }
    }

    /** A new key's row and the key, shown once. */
    public record Issued(Key row, String key) {

        @Override
        public String toString() {
            return "Issued[id=" + row.id() + "]";
        }
    }
}
