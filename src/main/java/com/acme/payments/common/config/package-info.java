/** Start-up settings checks (a missing required setting names its variable in one line) and the clock. */
package com.acme.payments.common.config;
