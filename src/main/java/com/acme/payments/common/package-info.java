/** Cross-cutting web plumbing: problem responses, credentials, request limits, clock and settings checks. */
package com.acme.payments.common;
