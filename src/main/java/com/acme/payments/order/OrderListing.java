package com.acme.payments.order;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;

/**
 * One page of the order list: the cursor's position found from its order's row, then one more order than asked
 * for, which tells whether another page follows without counting the rest.
 */
@Component
public class OrderListing {

    private final OrderListStore store;

    OrderListing(OrderListStore store) {
        this.store = store;
    }

    /** The console's search: the API's parameters, validated as the API validates them (400 naming the field). */
    public OrderPage find(String status, String createdFrom, String createdTo, String limit, String startingAfter) {
        return page(OrderListQuery.parse(status, createdFrom, createdTo, limit, startingAfter));
    }

    OrderPage page(OrderListQuery query) {
        OrderListStore.Position after = null;
        if (query.startingAfter() != null) {
            after = store.position(query.startingAfter()).orElseThrow(() -> Problems.ValidationFailed.of(
                    "startingAfter", "must be the orderRef of an order"));
        }
        List<Order> orders = store.page(query.filter(), after, query.limit() + 1);
        boolean hasMore = orders.size() > query.limit();
        List<OrderView> data = orders.stream().limit(query.limit()).map(OrderView::of).toList();
        return new OrderPage(data, hasMore);
    }

    /** A page of the list: the orders, newest first, and whether more follow. */
    public record OrderPage(List<OrderView> data, boolean hasMore) {
    }
}
