package com.acme.payments.chaos;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.acme.payments.chaos.ServiceClient.Answer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Webhooks the workload signs and posts itself, as the PSP would: HMAC-SHA256 hex of the raw body with
 * the signing key the instances are started with ({@link ChaosSimulator#SIGNING_KEY}, the simulator's
 * own scheme). Posted again, to another instance, after no answer or a 503 — the PSP's redelivery.
 */
final class SignedWebhooks {

    private SignedWebhooks() {
    }

    /** The simulator's record of the payment as a webhook body (its own fields, no {@code hiddenUntil}). */
    static ObjectNode copyOf(JsonNode simPayment) {
        ObjectNode copy = (ObjectNode) simPayment.deepCopy();
        copy.remove("hiddenUntil");
        return copy;
    }

    static String sign(String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(ChaosSimulator.SIGNING_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Posts until an answer other than none or 503 comes (at most six times); every answer is kept. */
    static FinalTruthsLog.Post post(ServiceClient client, Random random, String kind, String orderRef, ObjectNode payload) {
        String body = ChaosSimulator.JSON.writeValueAsString(payload);
        String signature = sign(body);
        Instant sentAt = Instant.now();
        List<Answer> answers = new ArrayList<>();
        int instance = client.randomInstance(random);
        Instant lastSentAt = sentAt;
        for (int i = 0; i < 6; i++) {
            lastSentAt = Instant.now();
            Answer a = client.psp((instance + i) % client.instances(), body, signature);
            answers.add(a);
            if (a.answered() && a.status() != 503) {
                break;
            }
            ServiceProcesses.sleep(300 + random.nextInt(700));
        }
        String id = payload.path("id").asString("");
        String state = payload.path("state").asString("");
        Answer last = answers.get(answers.size() - 1);
        Boolean receipt = last.answered() && last.status() != 503 ? receiptStored(id, state) : null;
        return new FinalTruthsLog.Post(kind, orderRef, id, state, sentAt, lastSentAt, List.copyOf(answers), receipt);
    }

    /**
     * Whether the inbox holds the receipt of (payment, state) now — read at once after the answer, so a
     * receipt rolled back with a failed apply is seen missing even if a later delivery stores it again.
     */
    private static Boolean receiptStored(String paymentId, String state) {
        try (java.sql.Connection c = TestDatabaseName.connect(); java.sql.PreparedStatement s = c.prepareStatement(
                "SELECT 1 FROM psp_webhook_event WHERE payment_id = ? AND state = ?")) {
            s.setString(1, com.acme.payments.psp.ReceiptKey.of(paymentId));
            s.setString(2, com.acme.payments.psp.ReceiptKey.of(state));
            try (java.sql.ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        } catch (java.sql.SQLException e) {
            return null; // an outage: not knowable now
        }
    }

    /** How the tally names an answer: {@code 200 unknown_payment}, {@code 500 internal-error}, {@code none}. */
    static String describe(Answer a) {
        if (!a.answered()) {
            return "none";
        }
        String status = a.json().path("status").asString("");
        return a.status() + " " + (a.status() / 100 == 2 ? status : a.problem());
    }
}
