/** Money at the edge: ISO-4217 currencies, scale rules and canonical amounts. */
package com.acme.payments.common.money;
