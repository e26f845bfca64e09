package com.acme.payments.common.ops;

import java.util.List;

/** Implemented by each feature that owns claimed-then-called work, so this package depends on none of them. */
public interface UnresolvedSource {

    /** Its IN_FLIGHT and UNKNOWN rows, oldest first, at most {@code limit}. */
    List<Unresolved> unresolved(int limit);
}
