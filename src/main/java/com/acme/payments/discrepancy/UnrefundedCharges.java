package com.acme.payments.discrepancy;

import java.util.List;

/**
 * Implemented by the feature that records second charges, so this package depends on none of them: the
 * charges no refund has settled {@code DONE} yet, as {@code duplicate_charge} discrepancies.
 */
public interface UnrefundedCharges {

    /** At most {@code limit}, any order (the listing sorts). */
    List<Discrepancy> unrefunded(int limit);
}
