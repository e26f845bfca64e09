package com.acme.payments.sweep;

/**
 * The sweep's hold on one claimed row: its id and the {@code lease_version} the claim bumped it to. A
 * resolve() under a lease writes only while that version is still the row's ({@link FencedApplier}); the
 * request path, which owns its row by the claim itself, passes {@link #NONE}.
 */
public record Lease(long id, long version) {

    /** No lease: the request path's resolve(), fenced by the row's state alone. */
    public static final Lease NONE = new Lease(-1, -1);

    public boolean held() {
        return !equals(NONE);
    }
}
