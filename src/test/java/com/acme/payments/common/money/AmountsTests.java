package com.acme.payments.common.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import com.acme.payments.common.web.Problems;

class AmountsTests {

    @Test
    void canonicalisesToTheCurrencyScale() {
        assertThat(Amounts.check(new BigDecimal("10.1"), "EUR").amount()).isEqualByComparingTo("10.10");
        assertThat(Amounts.check(new BigDecimal("10.1"), "EUR").amount().toPlainString()).isEqualTo("10.10");
        assertThat(Amounts.check(new BigDecimal("10.1"), "EUR").currency()).isEqualTo("EUR");
        assertThat(Amounts.check(new BigDecimal("1500"), "JPY").amount().toPlainString()).isEqualTo("1500");
        assertThat(Amounts.check(new BigDecimal("1.234"), "BHD").amount().toPlainString()).isEqualTo("1.234");
        assertThat(Amounts.check(new BigDecimal("2.500"), "EUR").amount().toPlainString()).isEqualTo("2.50");
        assertThat(Amounts.check(new BigDecimal("1E+2"), "EUR").amount().toPlainString()).isEqualTo("100.00");
    }

    @Test
    void refusesWhatMoneyCannotBe() {
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("0.001"), "EUR")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("1.5"), "JPY")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(BigDecimal.ZERO, "EUR")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("-1"), "EUR")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("1"), "XXX")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("1"), "EURO")).isInstanceOf(Problems.ValidationFailed.class);
        // the contract's currency is upper case: a lower-case code is refused, not canonicalised
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("1"), "eur")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(new BigDecimal("1e20"), "EUR")).isInstanceOf(Problems.ValidationFailed.class);
        assertThatThrownBy(() -> Amounts.check(null, null)).isInstanceOf(Problems.ValidationFailed.class);
    }
}
