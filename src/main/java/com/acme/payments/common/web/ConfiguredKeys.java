package com.acme.payments.common.web;

import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

/**
 * The keys of the configuration: a {@code SHOP_API_KEYS} entry holds {@link Scope#ORDERS} (named {@code shop}),
 * an {@code ADMIN_API_KEYS} entry every scope (named by its {@code name:} prefix, else {@code admin}). Every
 * configured key is compared (as a SHA-256 digest, with {@link MessageDigest#isEqual}) without stopping at the
 * first match, so timing says nothing about which key or how much of it matched.
 */
@Component
public class ConfiguredKeys {

    /** The actor of a shop key. */
    public static final String SHOP = "shop";
    /** The actor of an admin key without a {@code name:} prefix. */
    public static final String UNNAMED_ADMIN = "admin";
    /** Longer credentials are no key (and not hashed): a bound on the work an anonymous caller causes. */
    static final int MAX_LENGTH = 512;

    private final List<byte[]> shopKeys;
    private final List<byte[]> adminKeys;
    private final List<String> adminNames;

    ConfiguredKeys(AuthProperties properties) {
        this.shopKeys = properties.shopKeys().stream().map(Secrets::sha256).toList();
        List<AdminKey> admins = properties.adminKeys().stream().map(AdminKey::parse).toList();
        this.adminKeys = admins.stream().map(a -> Secrets.sha256(a.key())).toList();
        this.adminNames = admins.stream().map(AdminKey::name).toList();
    }

    /** The holder of a configured key whose SHA-256 is {@code presented}; an admin key wins over a shop key. */
    public Optional<KeyHolder> find(byte[] presented) {
        int admin = indexOf(presented, adminKeys);
        boolean shop = indexOf(presented, shopKeys) >= 0;
        if (admin >= 0) {
            return Optional.of(new KeyHolder(adminNames.get(admin), EnumSet.allOf(Scope.class)));
        }
        return shop ? Optional.of(new KeyHolder(SHOP, Set.of(Scope.ORDERS))) : Optional.empty();
    }

    /** Compares with every key, never stopping early; the last match wins (-1 for none). */
    private static int indexOf(byte[] presented, List<byte[]> keys) {
        int match = -1;
        for (int i = 0; i < keys.size(); i++) {
            boolean equal = MessageDigest.isEqual(presented, keys.get(i));
            match = equal ? i : match;
        }
        return match;
    }

    /**
     * One {@code ADMIN_API_KEYS} entry: {@code name:key}, or a bare key (named {@code admin}). Only a
     * prefix that looks like a name (letters, digits, {@code . _ -}, up to 64) is one, so a bare key that
     * happens to contain a colon elsewhere still works whole.
     */
    record AdminKey(String name, String key) {

        private static final Pattern NAMED = Pattern.compile("([A-Za-z0-9._-]{1,64}):(.+)");

        static AdminKey parse(String entry) {
            Matcher named = NAMED.matcher(entry);
            return named.matches() ? new AdminKey(named.group(1), named.group(2)) : new AdminKey(UNNAMED_ADMIN, entry);
        }

        @Override
        public String toString() {
            return "AdminKey[name=" + name + "]";
        }
    }
}
