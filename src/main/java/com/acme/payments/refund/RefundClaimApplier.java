package com.acme.payments.refund;

import java.math.BigDecimal;
import java.util.Optional;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.web.Problems;
import com.acme.payments.order.OrderStore;
import com.acme.payments.refund.RefundProblems.OrderNotRefundable;
import com.acme.payments.refund.RefundProblems.RefundBlockedByUnknown;
import com.acme.payments.refund.RefundProblems.RefundExceedsRemainder;
import com.acme.payments.refund.RefundProblems.RefundKeyReused;

/**
 * The refund claim's rules, in one committed transaction under the order's row lock (serialising every
 * refund guard of the order, and a revival of an abandoned refund with it): replay an existing key, refuse
 * a reused key, an order that is not PAID, another currency, a refund while another is UNKNOWN, and an
 * amount over the remainder. {@link RefundStore} and {@link OrderStore} hold the SQL, joined with
 * {@code MANDATORY}; under the lock the look-up of the key cannot race its insert.
 */
@Component
class RefundClaimApplier {

    private final RefundStore refunds;
    private final OrderStore orders;
    private final RefundProperties properties;

    RefundClaimApplier(RefundStore refunds, OrderStore orders, RefundProperties properties) {
        this.refunds = refunds;
        this.orders = orders;
        this.properties = properties;
    }

    /** An order's refund: the key's refund replays; else a new IN_FLIGHT refund, reserved on the order. */
    @Transactional
    Claim claim(long orderId, String key, BigDecimal amount, String currency, String newReference, String actor,
            String reason) {
        OrderStore.Locked locked = orders.lockForRefund(orderId);
        Optional<Refund> existing = refunds.findByKey(orderId, key);
        if (existing.isPresent()) {
            Refund refund = existing.get();
            if (refund.amount().compareTo(amount) != 0 || !refund.currency().equals(currency)) {
                throw new RefundKeyReused();
            }
            return new Claim(refund, false);
        }
        if (!"PAID".equals(locked.status())) {
            throw new OrderNotRefundable(locked.status());
        }
        if (!currency.equals(locked.paidCurrency())) { // under the lock: the order read before it was PAID proves nothing
            throw Problems.ValidationFailed.of("currency",
                    "must be the order's paid currency " + locked.paidCurrency());
        }
        if (refunds.otherUnknown(orderId, key)) {
            throw new RefundBlockedByUnknown(properties.blockedRetryAfter());
        }
        Refund inserted = refunds.insert(orderId, key, amount, currency, newReference, actor, reason);
        if (!orders.reserveRefund(orderId, amount)) {
            throw new RefundExceedsRemainder(); // rolls back the insert with it
        }
        return new Claim(inserted, true);
    }

    /**
     * A second charge's full refund, under the order's row lock as an order's refund: the charge's live
     * refund replays; without one a new refund is inserted, which is the reservation. The unique index
     * refuses a second live refund even if a caller skipped the lock.
     */
    @Transactional
    Claim claimCharge(long orderId, long chargeId, BigDecimal amount, String currency, String newReference,
            String actor, String reason) {
        orders.lockForRefund(orderId);
        Optional<Refund> live = refunds.liveForCharge(chargeId);
        if (live.isPresent()) {
            return new Claim(live.get(), false);
        }
        return new Claim(refunds.insertForCharge(orderId, chargeId, amount, currency, newReference, actor, reason),
                true);
    }

    /** The refund claimed, and whether this call owns it (must POST) or replays it. */
    record Claim(Refund refund, boolean owner) {
    }
}
