package com.acme.payments.common.web;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.web.servlet.HandlerExceptionResolver;

import jakarta.servlet.DispatcherType;

/**
 * Spring Security's chain for the HTTP API (everything but the operators' console, which has its own chain):
 * {@link BearerAuthenticationFilter} authenticates the bearer, {@link AccessRules} authorizes it per handler,
 * deny by default, and {@link AccessProblems} answers refusals as problems. Stateless, no CSRF (bearer keys, no
 * cookies), no session, no Servlet API wrapper, and none of Spring Security's headers ({@link EdgeHeadersFilter}
 * sets the API's).
 * Actuator endpoints pass (only health and prometheus are exposed), found like any handler; the error and async
 * dispatches pass, as they render or finish a request this chain already decided.
 */
@Configuration(proxyBeanMethods = false)
class SecuritySetup {

    /** The console's paths: its own chain (sessions, CSRF, a sign-in form) takes them. */
    static final String CONSOLE = "/console/**";

    @Bean
    SecurityFilterChain apiChain(HttpSecurity http, KeyAuthenticator keys, OrderTokens tokens,
            ApplicationContext context,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) throws Exception {
        AccessProblems problems = new AccessProblems(resolver);
        AccessRules rules = new AccessRules(new HandlerLookup(context), tokens);
        return http
                .securityMatcher(new NegatedRequestMatcher(PathPatternRequestMatcher.withDefaults().matcher(CONSOLE)))
                .csrf(csrf -> csrf.disable())
                .cors(cors -> cors.disable())
                .headers(headers -> headers.disable())
                .requestCache(cache -> cache.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .formLogin(form -> form.disable())
                .httpBasic(basic -> basic.disable())
                .logout(logout -> logout.disable())
                .anonymous(anonymous -> anonymous.disable())
                .servletApi(servletApi -> servletApi.disable()) // no request wrapper: nothing asks the request who calls
                .addFilterBefore(new BearerAuthenticationFilter(keys), AuthorizationFilter.class)
                .exceptionHandling(handling -> handling.authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems))
                .authorizeHttpRequests(requests -> requests
                        .dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC).permitAll()
                        .anyRequest().access(rules))
                .build();
    }

    /** The dispatcher runs the handler the access rules judged, without a second look-up. */
    @Bean
    AuthorizedHandlerMapping authorizedHandlerMapping() {
        return new AuthorizedHandlerMapping();
    }
}
