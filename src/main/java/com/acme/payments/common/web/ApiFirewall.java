package com.acme.payments.common.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's firewall, kept strict where a chain is chosen by path and relaxed where nothing is. The
 * console's chain is chosen by its path, so a request whose raw or normalised path is under {@code /console}
 * meets the {@link StrictHttpFirewall} ({@code ;}, {@code ..}, encoded separators refused): no path trick
 * moves a request between the two chains. Every other request is the API's: its rules are found from the
 * handler Spring MVC will run ({@link AccessRules}), never from the path's text, and the edge filters already
 * refused what is malformed, so the API keeps its own answers (405 for an unknown method, 404 for {@code ..;},
 * a 400 problem for a control character) instead of the firewall's bare 400 or a 500 from a header read later.
 */
final class ApiFirewall implements HttpFirewall {

    private static final String CONSOLE = "/console";

    private final StrictHttpFirewall strict = new StrictHttpFirewall();

    @Override
    public FirewalledRequest getFirewalledRequest(HttpServletRequest request) {
        if (concernsConsole(request)) {
            return strict.getFirewalledRequest(request);
        }
        return new FirewalledRequest(request) {
            @Override
            public void reset() {
            }
        };
    }

    @Override
    public HttpServletResponse getFirewalledResponse(HttpServletResponse response) {
        return strict.getFirewalledResponse(response); // refuses CR/LF in a header the service would write
    }

    /** {@code /console} itself or a path under it (not {@code /consoles}). */
    static boolean isConsolePath(String path) {
        return path.equals(CONSOLE) || path.startsWith(CONSOLE + "/") || path.startsWith(CONSOLE + ";");
    }

    private static boolean concernsConsole(HttpServletRequest request) {
        String uri = request.getRequestURI();
        String raw = uri == null ? "" : uri.substring(Math.min(uri.length(), request.getContextPath().length()));
        return isConsolePath(raw) || isConsolePath(request.getServletPath());
    }
}
