package com.acme.payments.common.web;

import java.util.Set;

/**
 * Who holds a key, once it is recognised: the key's {@code name} (the actor recorded for what it does) and its
 * scopes. Never the key itself.
 */
public record KeyHolder(String name, Set<Scope> scopes) {

    public KeyHolder {
        scopes = Set.copyOf(scopes);
    }

    public boolean has(Scope scope) {
        return scopes.contains(scope);
    }
}
