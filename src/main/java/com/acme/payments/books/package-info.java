/**
 * The books held against the PSP's: reconciliation runs that list the provider's payments and refunds of a
 * window and report where ours differ, on request and nightly; they only read and book nothing.
 */
package com.acme.payments.books;
