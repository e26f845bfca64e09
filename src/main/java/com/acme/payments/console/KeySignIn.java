package com.acme.payments.console;

import java.util.ArrayList;
import java.util.List;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

import com.acme.payments.common.web.KeyAuthenticator;
import com.acme.payments.common.web.KeyHolder;
import com.acme.payments.common.web.Scope;

/**
 * Exchanges the key posted to the sign-in form for the console's authorities: {@code operator} opens the console
 * to act, {@code read} to look, {@code keys} adds the keys page. Anything else is refused with one message, so a
 * refusal says nothing of why (unknown key, revoked, or a shop's). The key is not kept: the session holds the
 * key's name and authorities only.
 */
final class KeySignIn implements AuthenticationProvider {

    static final String LOOK = "CONSOLE_LOOK";
    static final String ACT = "CONSOLE_ACT";
    static final String KEYS = "CONSOLE_KEYS";

    private final KeyAuthenticator keys;

    KeySignIn(KeyAuthenticator keys) {
        this.keys = keys;
    }

    @Override
    public Authentication authenticate(Authentication signIn) {
        KeyHolder holder = signIn.getCredentials() instanceof String key ? keys.authenticate(key).orElse(null) : null;
        if (holder == null || !(holder.has(Scope.OPERATOR) || holder.has(Scope.READ))) {
            throw new BadCredentialsException("This key does not open the console.");
        }
        List<GrantedAuthority> authorities = new ArrayList<>(List.of(new SimpleGrantedAuthority(LOOK)));
        if (holder.has(Scope.OPERATOR)) {
            authorities.add(new SimpleGrantedAuthority(ACT));
        }
        if (holder.has(Scope.KEYS)) {
            authorities.add(new SimpleGrantedAuthority(KEYS));
        }
        return UsernamePasswordAuthenticationToken.authenticated(holder.name(), null, authorities);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
