package com.acme.payments.sweep;

/** A row of a {@link SweptTable}: the claim returns it with the lease version it now carries. */
public interface Leased {

    long id();

    long leaseVersion();

    default Lease lease() {
        return new Lease(id(), leaseVersion());
    }
}
