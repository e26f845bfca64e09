/** The service's OpenAPI description at {@code /v3/api-docs}: security schemes, problem answers, money as strings. */
package com.acme.payments.openapi;
