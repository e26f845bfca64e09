package com.acme.payments.sweep;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sweep's four statements, run one way for every {@link SweptTable} (keyed by id, fenced by
 * {@code lease_version}). Conventions 5a: each Store passes its own SQL constants (the SQL stays per Store,
 * next to its table), this class only runs them. The statements take {@code :ageSeconds}/{@code :limit},
 * {@code :leaseSeconds}/{@code :limit}, {@code :id}/{@code :version} and {@code :ids}/{@code :versions}
 * (two {@code bigint[]} of the same length, pairwise).
 */
@Transactional
public abstract class SweptStore<T extends Leased> implements SweptTable<T> {

    private final JdbcClient jdbc;
    private final RowMapper<T> row;
    private final String ageInFlight;
    private final String claimUnknown;
    private final String holdLease;
    private final String releaseLeases;

    protected SweptStore(JdbcClient jdbc, RowMapper<T> row, String ageInFlight, String claimUnknown,
            String holdLease, String releaseLeases) {
        this.jdbc = jdbc;
        this.row = row;
        this.ageInFlight = ageInFlight;
        this.claimUnknown = claimUnknown;
        this.holdLease = holdLease;
        this.releaseLeases = releaseLeases;
    }

    @Override
    public int ageInFlight(Duration age, int limit) {
        return jdbc.sql(ageInFlight).param("ageSeconds", age.toSeconds()).param("limit", limit).update();
    }

    @Override
    public List<T> claimUnknown(Duration lease, int limit) {
        return jdbc.sql(claimUnknown).param("leaseSeconds", lease.toSeconds()).param("limit", limit).query(row).list();
    }

    @Override
    public int releaseLeases(Collection<Lease> leases) {
        if (leases.isEmpty()) {
            return 0;
        }
        return jdbc.sql(releaseLeases).param("ids", leases.stream().map(Lease::id).toArray(Long[]::new))
                .param("versions", leases.stream().map(Lease::version).toArray(Long[]::new)).update();
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
