package com.acme.payments.retention;

import java.util.List;

/**
 * A feature's retention jobs, implemented in the package that owns the tables (as a {@code Poller} declares
 * its polls). {@link Retentions} discovers every Retainer bean and schedules its jobs; a feature wires no
 * schedule, loop, meter or error handling of its own.
 */
public interface Retainer {

    /** This feature's retention jobs; their names are unique across the application. */
    List<RetentionJob> retentionJobs();
}
