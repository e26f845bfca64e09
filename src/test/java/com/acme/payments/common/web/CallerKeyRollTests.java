package com.acme.payments.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The shop and admin keys roll as docs/runbook.md says: add the new key, move the callers, drop the old one. */
class CallerKeyRollTests {

    private static final KeyHolder SHOP = new KeyHolder("shop", Set.of(Scope.ORDERS));

    private static Optional<KeyHolder> resolve(List<String> shopKeys, List<String> adminKeys, String presented) {
        return new ConfiguredKeys(new AuthProperties(shopKeys, adminKeys, List.of())).find(Secrets.sha256(presented));
    }

    private static KeyHolder admin(String name) {
        return new KeyHolder(name, EnumSet.allOf(Scope.class));
    }

    @Test
    @DisplayName("SHOP_API_KEYS=new,old: both are the shop during the roll; after it the old one is no key (401)")
    void aShopKeyRolls() {
        List<String> admin = List.of("admin-key");
        assertThat(resolve(List.of("old-shop"), admin, "old-shop")).contains(SHOP);
        assertThat(resolve(List.of("old-shop"), admin, "new-shop")).isEmpty();

        List<String> during = List.of("new-shop", "old-shop");
        assertThat(resolve(during, admin, "old-shop")).as("the backend not yet switched").contains(SHOP);
        assertThat(resolve(during, admin, "new-shop")).as("the backend already switched").contains(SHOP);

        assertThat(resolve(List.of("new-shop"), admin, "new-shop")).contains(SHOP);
        assertThat(resolve(List.of("new-shop"), admin, "old-shop")).as("after: no key, perhaps an order's token")
                .isEmpty();
    }

    @Test
    @DisplayName("ADMIN_API_KEYS=anna:new,anna:old: the operator keeps her name through the roll, with every scope")
    void anAdminKeyRollsUnderTheSameName() {
        List<String> shop = List.of("shop-key");
        List<String> during = List.of("anna:new-admin", "anna:old-admin", "ops:other");
        assertThat(resolve(shop, during, "old-admin")).contains(admin("anna"));
        assertThat(resolve(shop, during, "new-admin")).contains(admin("anna"));
        assertThat(resolve(shop, List.of("admin-bare"), "admin-bare")).contains(admin("admin"));
        assertThat(resolve(shop, List.of("anna:new-admin", "ops:other"), "old-admin")).isEmpty();
    }
}
