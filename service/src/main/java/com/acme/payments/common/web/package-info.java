/**
 * RFC 9457 problem responses, the request body reader and the path lookups that keep the contract's
 * precedence (401/403, 404, 400), the body size limit.
 */
package com.acme.payments.common.web;
