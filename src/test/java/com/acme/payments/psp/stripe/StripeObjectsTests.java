package com.acme.payments.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.acme.payments.psp.PaymentPayloadFault;
import com.acme.payments.psp.PaymentState;
import com.acme.payments.psp.PspPayment;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The contract's table (http-contract.md, "Stripe as the PSP"), one row each, on Stripe's shapes at basil. */
class StripeObjectsTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static JsonNode json(String text) {
        return JSON.readTree(text.replace('\'', '"'));
    }

    static String session(String status, String paymentStatus, String paymentIntent) {
        return """
                {'id':'cs_test_1','object':'checkout.session','status':'%s','payment_status':'%s',
                 'payment_intent':%s,'client_reference_id':'chk_1','amount_total':1999,'currency':'eur',
                 'url':'https://checkout.stripe.com/c/pay/cs_test_1','expires_at':1767225600,
                 'metadata':{'orderRef':'ord-1','attempt':'chk_1'}}
                """.formatted(status, paymentStatus, paymentIntent);
    }

    @ParameterizedTest(name = "session {0}/{1} → {2}")
    @CsvSource({ "complete, paid, COMPLETED", "complete, unpaid, PENDING", "open, unpaid, CHECKOUT",
            "expired, unpaid, CANCELLED" })
    @DisplayName("a Checkout Session's status and payment_status become our state")
    void sessionStates(String status, String paymentStatus, PaymentState expected) {
        PspPayment payment = StripeObjects.fromJson(json(session(status, paymentStatus, "null")));
        assertThat(payment.paymentState()).isEqualTo(expected);
        assertThat(payment.paymentState().isFinal()).isEqualTo(expected == PaymentState.COMPLETED
                || expected == PaymentState.CANCELLED);
        assertThat(payment.referenceId()).isEqualTo("chk_1");
        assertThat(payment.paymentType()).isEqualTo("DEPOSIT");
        assertThat(payment.amount()).isEqualByComparingTo("19.99");
        assertThat(payment.currency()).isEqualTo("EUR");
    }

    @Test
    @DisplayName("an open session's url is the redirect, and its id the payment's until the PaymentIntent is known")
    void openSessionRedirects() {
        PspPayment payment = StripeObjects.fromJson(json(session("open", "unpaid", "null")));
        assertThat(payment.id()).isEqualTo("cs_test_1");
        assertThat(payment.redirectUrl()).isEqualTo("https://checkout.stripe.com/c/pay/cs_test_1");
    }

    @Test
    @DisplayName("once the PaymentIntent is known, the payment's id is the PaymentIntent's")
    void paidSessionIsItsPaymentIntent() {
        PspPayment payment = StripeObjects.fromJson(json(session("complete", "paid", "'pi_123'")));
        assertThat(payment.id()).isEqualTo("pi_123");
        assertThat(payment.paymentState()).isEqualTo(PaymentState.COMPLETED);
    }

    @Test
    @DisplayName("a PaymentIntent's id supersedes the session id the attempt holds, read from the session or the PaymentIntent, unless the customer is still at it; a session id and a refund never")
    void onlyAPaymentIntentSupersedesTheProvisionalSessionId() {
        assertThat(StripeObjects.fromJson(json(session("complete", "paid", "'pi_123'"))).supersedesProvisional()).isTrue();
        assertThat(StripeObjects.fromJson(json(session("complete", "unpaid", "'pi_123'"))).supersedesProvisional()).isTrue();
        assertThat(StripeObjects.asyncPaymentFailed(json(session("complete", "unpaid", "'pi_123'"))).supersedesProvisional())
                .isTrue();
        assertThat(StripeObjects.fromJson(json(intent("canceled", ""))).supersedesProvisional())
                .as("by its metadata[attempt]: the attempt's one session's one PaymentIntent").isTrue();
        assertThat(StripeObjects.fromJson(json(session("open", "unpaid", "null"))).supersedesProvisional()).isFalse();
        assertThat(StripeObjects.fromJson(json(session("open", "unpaid", "{'id':'pi_123','object':'payment_intent',"
                + "'status':'requires_payment_method','amount':1999,'currency':'eur'}"))).supersedesProvisional())
                .as("a failed try on an open session: the session, not its PaymentIntent, tells its expiry").isFalse();
        assertThat(StripeObjects.fromJson(json(intent("requires_payment_method", ""))).supersedesProvisional()).isFalse();
        assertThat(StripeObjects.fromJson(json(session("expired", "unpaid", "null"))).supersedesProvisional()).isFalse();
        assertThat(StripeObjects.fromJson(json(refund("succeeded", null))).supersedesProvisional()).isFalse();
    }

    @Test
    @DisplayName("an expired session is CANCELLED with a reason")
    void expiredSession() {
        PspPayment payment = StripeObjects.fromJson(json(session("expired", "unpaid", "null")));
        assertThat(payment.errorCode()).isEqualTo("expired");
    }

    @ParameterizedTest(name = "complete/unpaid session with an expanded PaymentIntent {0} → {1}")
    @CsvSource({ "requires_capture, AUTHORIZED", "succeeded, COMPLETED", "canceled, CANCELLED",
            "processing, PENDING" })
    @DisplayName("a manual-capture session completes unpaid: its expanded PaymentIntent tells the state")
    void expandedIntentDecides(String intentStatus, PaymentState expected) {
        String intent = "{'id':'pi_9','object':'payment_intent','status':'%s','amount':1999,'amount_capturable':1999,'amount_received':0,'currency':'eur'}"
                .formatted(intentStatus);
        PspPayment payment = StripeObjects.fromJson(json(session("complete", "unpaid", intent)));
        assertThat(payment.paymentState()).isEqualTo(expected);
        assertThat(payment.id()).isEqualTo("pi_9");
        assertThat(payment.redirectUrl()).isEqualTo("https://checkout.stripe.com/c/pay/cs_test_1");
    }

    @Test
    @DisplayName("a session without client_reference_id is found by metadata[attempt]")
    void referenceFromMetadata() {
        JsonNode node = json("{'id':'cs_2','object':'checkout.session','status':'open','payment_status':'unpaid',"
                + "'amount_total':500,'currency':'jpy','metadata':{'attempt':'chk_2'}}");
        PspPayment payment = StripeObjects.fromJson(node);
        assertThat(payment.referenceId()).isEqualTo("chk_2");
        assertThat(payment.amount()).isEqualTo(new BigDecimal("500"));
        assertThat(payment.currency()).isEqualTo("JPY");
    }

    static String intent(String status, String extra) {
        return ("{'id':'pi_1','object':'payment_intent','status':'%s','amount':1230,'amount_capturable':%s,"
                + "'amount_received':%s,'currency':'bhd','metadata':{'orderRef':'ord-1','attempt':'chk_1'}%s}")
                .formatted(status, "requires_capture".equals(status) ? "1230" : "0",
                        "succeeded".equals(status) ? "1230" : "0", extra);
    }

    @ParameterizedTest(name = "PaymentIntent {0} → {1}")
    @CsvSource({ "succeeded, COMPLETED", "requires_capture, AUTHORIZED", "canceled, CANCELLED",
            "processing, PENDING", "requires_payment_method, CHECKOUT", "requires_confirmation, CHECKOUT",
            "requires_action, CHECKOUT", "something_new, UNRECOGNIZED" })
    @DisplayName("a PaymentIntent's status becomes our state; only succeeded and canceled are final")
    void intentStates(String status, PaymentState expected) {
        PspPayment payment = StripeObjects.fromJson(json(intent(status, "")));
        assertThat(payment.paymentState()).isEqualTo(expected);
        assertThat(payment.id()).isEqualTo("pi_1");
        assertThat(payment.referenceId()).isEqualTo("chk_1");
        assertThat(payment.amount()).isEqualTo(new BigDecimal("1.230"));
        assertThat(payment.currency()).isEqualTo("BHD");
    }

    @Test
    @DisplayName("a canceled PaymentIntent carries its last error's decline code")
    void canceledIntentError() {
        PspPayment payment = StripeObjects.fromJson(json(intent("canceled",
                ",'cancellation_reason':'abandoned','last_payment_error':{'code':'card_declined','decline_code':'insufficient_funds','message':'Your card has insufficient funds.'}")));
        assertThat(payment.errorCode()).isEqualTo("insufficient_funds");
        assertThat(payment.errorMessage()).isEqualTo("Your card has insufficient funds.");
        PspPayment plain = StripeObjects.fromJson(json(intent("canceled", ",'cancellation_reason':'abandoned'")));
        assertThat(plain.errorCode()).isEqualTo("abandoned");
    }

    static String refund(String status, String failure) {
        return ("{'id':'re_1','object':'refund','status':'%s','amount':500,'currency':'usd','payment_intent':'pi_1',"
                + "'failure_reason':%s,'metadata':{'refundKey':'k-1','referenceId':'rfd_1'}}").formatted(status,
                        failure == null ? "null" : "'" + failure + "'");
    }

    @ParameterizedTest(name = "refund {0} → {1}")
    @CsvSource({ "succeeded, COMPLETED", "pending, PENDING", "requires_action, PENDING", "failed, DECLINED",
            "canceled, CANCELLED" })
    @DisplayName("a Refund's status becomes our state")
    void refundStates(String status, PaymentState expected) {
        PspPayment payment = StripeObjects.fromJson(json(refund(status, null)));
        assertThat(payment.paymentState()).isEqualTo(expected);
        assertThat(payment.isRefund()).isTrue();
        assertThat(payment.id()).isEqualTo("re_1");
        assertThat(payment.referenceId()).isEqualTo("rfd_1");
        assertThat(payment.parentPaymentId()).isEqualTo("pi_1");
        assertThat(payment.amount()).isEqualByComparingTo("5.00");
        assertThat(payment.currency()).isEqualTo("USD");
    }

    @Test
    @DisplayName("a failed refund's errorCode is Stripe's failure_reason")
    void refundFailureReason() {
        PspPayment payment = StripeObjects.fromJson(json(refund("failed", "expired_or_canceled_card")));
        assertThat(payment.errorCode()).isEqualTo("expired_or_canceled_card");
    }

    @Test
    @DisplayName("what is not one of the three objects, or cannot be booked, is refused, never half-read")
    void refusals() {
        assertThatThrownBy(() -> StripeObjects.fromJson(json("{'id':'ch_1','object':'charge'}")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StripeObjects.fromJson(json("{'object':'refund','status':'succeeded'}")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StripeObjects.fromJson(json(
                "{'id':'pi_1','object':'payment_intent','status':'succeeded','amount':19.99,'currency':'eur'}")))
                .as("minor units are integers").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StripeObjects.fromJson(json(
                "{'id':'pi_1','object':'payment_intent','status':'succeeded','amount':1000,'amount_received':1000,'currency':'zzz'}")))
                .isInstanceOf(PaymentPayloadFault.class);
    }
}
