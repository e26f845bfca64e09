package com.acme.payments.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The formula guard of {@link LedgerCsv}: every character a spreadsheet starts a formula with, and no other. */
class LedgerCsvTests {

    @ParameterizedTest
    @ValueSource(strings = { "=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx" })
    void aTextCellThatWouldRunAsAFormulaIsMadeText(String value) {
        assertThat(LedgerCsv.text(value)).isEqualTo("'" + value);
    }

    @ParameterizedTest
    @ValueSource(strings = { "ord-1", "pay_123", "re_3Q", "a=b", "x-1", "'quoted" })
    void anyOtherTextIsWrittenAsItIs(String value) {
        assertThat(LedgerCsv.text(value)).isEqualTo(value);
    }
}
