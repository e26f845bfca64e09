/** The operators' view across features: work that is IN_FLIGHT or UNKNOWN and may need a hand. */
package com.acme.payments.common.ops;
