package com.acme.payments.common.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's firewall, kept, with two changes so every refusal is still one of ours: any method passes it
 * (Spring MVC answers one an endpoint does not serve with 405 {@code method-not-allowed}, TRACE is
 * {@link MalformedRequestFilter}'s), header and parameter values are ours to judge, and what it does refuse (a
 * {@code ;} path parameter, an encoded slash or dot, a path that does not normalise) is a 400 {@code bad-request}
 * problem, not the servlet container's error page.
 */
@Configuration(proxyBeanMethods = false)
class FirewallSetup {

    /**
     * No Micrometer observation around each security filter, the authentication and the authorization: with
     * tracing on, every request (a health probe too) carried a dozen extra spans and timers the service's own
     * request metrics and trace already cover.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    WebSecurityCustomizer problemAnsweringFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        // header and parameter values are MalformedRequestFilter's and RequestRules' to judge, with a 400 each; the
        // firewall would throw on reading one, deep in a controller, where it became a 500
        firewall.setAllowedHeaderNames(name -> true);
        firewall.setAllowedHeaderValues(value -> true);
        firewall.setAllowedParameterNames(name -> true);
        firewall.setAllowedParameterValues(value -> true);
        return web -> web.httpFirewall(firewall).requestRejectedHandler((request, response, rejected) -> MalformedRequestFilter
                .refuse(response, ProblemType.BAD_REQUEST, "The request was refused before it reached an endpoint."));
    }
}
