package com.acme.payments.common.web;

import java.net.URI;

/** Stable problem {@code type} URIs: clients branch on the slug, so a slug never changes meaning. */
public final class ProblemTypes {

    public static final String BASE = "https://payments.acme.example/problems/";

    private ProblemTypes() {
    }

    public static URI of(String slug) {
        return URI.create(BASE + slug);
    }
}
