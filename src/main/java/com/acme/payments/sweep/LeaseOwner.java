package com.acme.payments.sweep;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** The name a lease row records as its holder: which instance runs a once-only job. */
public final class LeaseOwner {

    private LeaseOwner() {
    }

    /** Host, process and a random part: two instances on one host, or a restarted one, never share it. */
    public static String newName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        return host + "/" + ManagementFactory.getRuntimeMXBean().getPid() + "/"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
