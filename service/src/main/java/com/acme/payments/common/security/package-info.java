/** Bearer credentials: shop and admin keys, per-order client tokens, constant-time comparison. */
package com.acme.payments.common.security;
