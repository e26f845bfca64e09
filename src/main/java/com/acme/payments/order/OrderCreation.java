package com.acme.payments.order;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.acme.payments.common.money.Amounts;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Secrets;

/**
 * Creates orders idempotently by {@code orderRef}: the same body again answers the same order (without
 * a token: it was handed out once), a different amount or currency is a conflict.
 */
@Component
class OrderCreation {

    private static final Logger log = LoggerFactory.getLogger(OrderCreation.class);

    private final OrderStore orders;
    private final ChargeableAmounts chargeable;

    OrderCreation(OrderStore orders, ChargeableAmounts chargeable) {
        this.orders = orders;
        this.chargeable = chargeable;
    }

    Created create(CreateOrderRequest request) {
        Amounts.Checked money = Amounts.check(request.amount(), request.currency());
        // before the first statement: an order no checkout could pay is never stored
        chargeable.refuses(money.amount(), money.currency()).ifPresent(why -> {
            throw new AmountNotSupported(money.amount().toPlainString(), money.currency(), why);
        });
        String token = Secrets.newToken();
        var order = new OrderStore.NewOrder(request.orderRef(), money.amount(), money.currency(),
                request.customer().referenceId(), request.customer().email());
        var inserted = orders.create(order, Secrets.sha256(token));
        if (inserted.isPresent()) {
            log.info("order created orderRef={} currency={}", inserted.get().orderRef(), money.currency());
            return new Created(inserted.get(), token);
        }
        Order existing = orders.findByRef(request.orderRef()).orElseThrow();
        if (existing.amount().compareTo(money.amount()) != 0 || !existing.currency().equals(money.currency())) {
            throw new OrderRefConflict(request.orderRef());
        }
        return new Created(existing, null);
    }

    record Created(Order order, String clientToken) {
        boolean isNew() {
            return clientToken != null;
        }
    }

    static final class AmountNotSupported extends ApiProblem {
        AmountNotSupported(String amount, String currency, String why) {
            super(ProblemType.AMOUNT_NOT_SUPPORTED, "The payment provider cannot charge " + amount + " " + currency
                    + ": " + why + ".");
        }
    }

    static final class OrderRefConflict extends ApiProblem {
        OrderRefConflict(String orderRef) {
            super(ProblemType.ORDER_REF_CONFLICT, "Order " + orderRef + " exists with a different amount or currency.");
        }
    }
}
