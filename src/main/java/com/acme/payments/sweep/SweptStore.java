package com.acme.payments.sweep;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sweep's three statements, run one way for every {@link SweptTable} (keyed by id, fenced by
 * {@code lease_version}). Conventions 5a: each Store passes its own SQL constants (the SQL stays per Store,
 * next to its table), this class only runs them. The statements take {@code :ageSeconds}/{@code :limit},
 * {@code :leaseSeconds}/{@code :limit} and {@code :id}/{@code :version}.
 */
@Transactional
public abstract class SweptStore<T extends Leased> implements SweptTable<T> {

    private final JdbcClient jdbc;
    private final RowMapper<T> row;
    private final String ageInFlight;
    private final String claimUnknown;
    private final String holdLease;

    protected SweptStore(JdbcClient jdbc, RowMapper<T> row, String ageInFlight, String claimUnknown,
            String holdLease) {
        this.jdbc = jdbc;
        this.row = row;
        this.ageInFlight = ageInFlight;
        this.claimUnknown = claimUnknown;
        this.holdLease = holdLease;
    }

    @Override
    public int ageInFlight(Duration age, int limit) {
        return jdbc.sql(ageInFlight).param("ageSeconds", age.toSeconds()).param("limit", limit).update();
    }

    @Override
    public List<T> claimUnknown(Duration lease, int limit) {
        return jdbc.sql(claimUnknown).param("leaseSeconds", lease.toSeconds()).param("limit", limit).query(row).list();
    }

    /**
     * Inside the settling transaction: locks the row if the caller's lease is still the current one.
     * False means another instance claimed it since; the caller must not write.
     */
    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean holdLease(Lease lease) {
        return jdbc.sql(holdLease).param("id", lease.id()).param("version", lease.version()).query(Long.class)
                .optional().isPresent();
    }
}
