/** The on-demand service benchmark (tag {@code benchmark}): separate service JVMs, the simulator, pgbench beside. */
package com.acme.payments.bench;
