package com.acme.payments.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.common.web.Problems;

class ReturnUrlsTests {

    static ReturnUrls allowing(String... prefixes) {
        return new ReturnUrls(new CheckoutProperties("https://pay.example", "https://shop.example.com/thanks",
                List.of(prefixes), null));
    }

    @Test
    @DisplayName("return URLs are compared by origin, then path prefix: a prefix without a slash admits no look-alike host")
    void returnUrlsAreComparedByOriginThenPath() {
        ReturnUrls urls = allowing("https://shop.example.com", "https://m.shop.example.com/app");
        for (String hostile : List.of("https://shop.example.com.evil.example/", "https://shop.example.com@evil.example/",
                "https://shop.example.com:444/", "http://shop.example.com/", "https://evil.example/https://shop.example.com",
                "https://user@shop.example.com/", "https://m.shop.example.com/application",
                "https://m.shop.example.com/", "javascript:alert(1)")) {
            assertThatThrownBy(() -> urls.choose(hostile)).as(hostile).isInstanceOf(Problems.ValidationFailed.class);
        }
        for (String allowed : List.of("https://shop.example.com", "https://shop.example.com/", "https://SHOP.example.com/x?y=1",
                "https://shop.example.com:443/done", "https://m.shop.example.com/app", "https://m.shop.example.com/app/ok")) {
            assertThat(urls.choose(allowed)).as(allowed).isEqualTo(allowed);
        }
        assertThat(urls.choose(null)).isEqualTo("https://shop.example.com/thanks");
    }
}
