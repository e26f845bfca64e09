/** RFC 9457 problem responses, JSON body reading in contract precedence, the body size limit. */
package com.acme.payments.common.web;
