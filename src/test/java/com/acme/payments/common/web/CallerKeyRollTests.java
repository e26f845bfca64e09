package com.acme.payments.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The shop and admin keys roll as docs/runbook.md says: add the new key, move the callers, drop the old one. */
class CallerKeyRollTests {

    private static Caller resolve(List<String> shopKeys, List<String> adminKeys, String presented) {
        return new CallerResolver(new AuthProperties(shopKeys, adminKeys, List.of())).resolve("Bearer " + presented);
    }

    @Test
    @DisplayName("SHOP_API_KEYS=new,old: both are the shop during the roll; after it the old one is no key (401)")
    void aShopKeyRolls() {
        List<String> admin = List.of("admin-key");
        assertThat(resolve(List.of("old-shop"), admin, "old-shop")).isInstanceOf(Caller.Shop.class);
        assertThat(resolve(List.of("old-shop"), admin, "new-shop")).isInstanceOf(Caller.Bearer.class);

        List<String> during = List.of("new-shop", "old-shop");
        assertThat(resolve(during, admin, "old-shop")).as("the backend not yet switched").isInstanceOf(Caller.Shop.class);
        assertThat(resolve(during, admin, "new-shop")).as("the backend already switched").isInstanceOf(Caller.Shop.class);

        assertThat(resolve(List.of("new-shop"), admin, "new-shop")).isInstanceOf(Caller.Shop.class);
        assertThat(resolve(List.of("new-shop"), admin, "old-shop")).as("after: only a bearer, which no order knows")
                .isInstanceOf(Caller.Bearer.class);
    }

    @Test
    @DisplayName("ADMIN_API_KEYS=anna:new,anna:old: the operator keeps her name through the roll")
    void anAdminKeyRollsUnderTheSameName() {
        List<String> shop = List.of("shop-key");
        List<String> during = List.of("anna:new-admin", "anna:old-admin", "ops:other");
        assertThat(resolve(shop, during, "old-admin")).isEqualTo(new Caller.Admin("anna"));
        assertThat(resolve(shop, during, "new-admin")).isEqualTo(new Caller.Admin("anna"));
        assertThat(resolve(shop, List.of("anna:new-admin", "ops:other"), "old-admin")).isInstanceOf(Caller.Bearer.class);
    }
}
