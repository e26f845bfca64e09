package com.acme.payments.books;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.psp.PspPayment;

/** The matching rules of a run, record by record, without a PSP or a database. */
class BooksComparisonTests {

    private static OurRecord paid(String id, String reference, String amount) {
        return new OurRecord(false, id, reference, "ord_1", "PAID", true, false, new BigDecimal(amount), "EUR");
    }

    private static PspPayment deposit(String id, String reference, String state, String amount, boolean supersedes) {
        return new PspPayment(id, reference, "DEPOSIT", state, new BigDecimal(amount), "EUR", null, null, null, null,
                supersedes);
    }

    @Test
    @DisplayName("a booked refund the PSP still shows under way is no mismatch; one it shows failed is a state_mismatch")
    void aSettlingRefundIsNoMismatchAFailedOneIs() {
        OurRecord settling = new OurRecord(true, "r1", "rfd_1", "ord_1", "DONE/PENDING", true, true,
                new BigDecimal("5.00"), "EUR");
        OurRecord done = new OurRecord(true, "r2", "rfd_2", "ord_1", "DONE/COMPLETED", true, false,
                new BigDecimal("5.00"), "EUR");
        BooksComparison books = new BooksComparison(true, List.of(settling, done));
        books.offer(new PspPayment("r1", "rfd_1", "REFUND", "PENDING", new BigDecimal("5.00"), "EUR", null, null, null,
                "p1"));
        books.offer(new PspPayment("r2", "rfd_2", "REFUND", "DECLINED", new BigDecimal("5.00"), "EUR", null, null, null,
                "p1"));
        assertThat(books.mismatches()).extracting(Mismatch::kind, Mismatch::pspPaymentId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(MismatchKind.STATE_MISMATCH, "r2"));
        assertThat(books.pspRecords()).isEqualTo(2);
        assertThat(books.ourRecords()).isEqualTo(2);
    }

    @Test
    @DisplayName("at the Gateway a second payment under the attempt's reference is not the attempt's: unbooked, it is missing_here")
    void aSecondPaymentUnderOneReferenceIsNotTheAttempts() {
        BooksComparison books = new BooksComparison(true, List.of(paid("p2", "chk_1", "10.00")));
        books.offer(deposit("p1", "chk_1", "COMPLETED", "10.00", false)); // listed first: oldest
        books.offer(deposit("p2", "chk_1", "COMPLETED", "10.00", false));
        books.settle(List.of(), Map.of());
        books.leftovers().forEach(o -> books.alone(o, Optional.empty()));
        assertThat(books.mismatches()).extracting(Mismatch::kind, Mismatch::pspPaymentId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(MismatchKind.MISSING_HERE, "p1"));
    }

    @Test
    @DisplayName("at Stripe a PaymentIntent replaces the session id the attempt still holds: matched by our reference")
    void aPaymentIntentMatchesTheSessionsAttemptByReference() {
        BooksComparison books = new BooksComparison(false, List.of(paid("cs_1", "chk_1", "10.00")));
        books.offer(deposit("pi_1", "chk_1", "COMPLETED", "10.00", true));
        books.offer(new PspPayment("pi_other", null, "DEPOSIT", "COMPLETED", new BigDecimal("99.00"), "EUR", null, null,
                null, null, true));
        books.settle(List.of(), Map.of());
        assertThat(books.leftovers()).isEmpty();
        assertThat(books.mismatches()).as("another integration's PaymentIntent is not ours").isEmpty();
        assertThat(books.pspRecords()).isEqualTo(1);
    }
}
