/** Start-up settings checks (a missing secret names its variable) and the clock. */
package com.acme.payments.common.config;
