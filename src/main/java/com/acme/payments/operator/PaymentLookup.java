package com.acme.payments.operator;

import java.util.Optional;

/**
 * What a feature knows of a PSP payment id, for {@code GET /api/admin/payments/{pspPaymentId}}: the feature
 * that owns the record implements it (a checkout's payment, a refund, a second charge), so this package
 * reads no feature's table. The first {@link #rank() rank} that knows the id answers.
 */
public interface PaymentLookup {

    /**
     * Which answer wins when several features know one id: a second charge is also an earlier attempt's
     * payment, so the duplicate charge (lowest rank) is asked first.
     */
    int rank();

    Optional<PaymentRole> find(String pspPaymentId);

    /**
     * One PSP payment as operators see it.
     *
     * @param pspPaymentId the PSP's id
     * @param orderRef the order it belongs to
     * @param role {@code payment}, {@code refund}, {@code duplicate_charge} or {@code duplicate_refund}
     * @param state our state of that record: the order's status, the refund's state, the duplicate charge's
     *        refund state or {@code DETECTED}
     */
    record PaymentRole(String pspPaymentId, String orderRef, String role, String state) {
    }
}
