package com.acme.payments.psp;

/**
 * The PSP answered a real 4xx status: a confirmed refusal, nothing was created. The only PSP failure
 * that may be treated as definite.
 */
public final class PspRejected extends RuntimeException {

    private final int status;
    private final String errorCode;

    public PspRejected(int status, String errorCode, String errorMessage) {
        super("PSP refused the request with HTTP " + status + (errorCode == null ? "" : " (" + errorCode + ")")
                + (errorMessage == null ? "" : ": " + errorMessage));
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    public String errorCode() {
        return errorCode;
    }
}
