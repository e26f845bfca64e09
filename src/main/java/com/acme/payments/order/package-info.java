/** Orders: creation, the per-order client token, the order view, and the status whitelist payments move them by. */
package com.acme.payments.order;
