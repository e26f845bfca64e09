package com.acme.payments.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

import com.acme.payments.common.web.KeyAuthenticator;

/**
 * The console's own filter chain, ahead of the API's: a key posted once to {@code /console/sign-in} becomes a
 * session (the session id changes at sign-in), every form carries Spring Security's CSRF token, only an
 * {@code operator} key's session may post an action (a read-only one is answered 403), only a {@code keys} key's
 * session may see or change the keys (as the API's scope), and every answer carries a
 * Content-Security-Policy that admits nothing inline and nothing from elsewhere. The session cookie's attributes
 * ({@code HttpOnly}, {@code SameSite=Strict}, path {@code /console}; {@code Secure} over TLS) are the servlet
 * container's ({@code server.servlet.session.cookie.*} in application.yml).
 */
@Configuration(proxyBeanMethods = false)
class ConsoleSecurity {

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityFilterChain consoleChain(HttpSecurity http, KeyAuthenticator keys, ConsoleProperties properties)
            throws Exception {
        return http
                .securityMatcher("/console", "/console/**")
                .authenticationManager(new ProviderManager(new KeySignIn(keys)))
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(HttpMethod.GET, "/console", "/console/assets/**").permitAll()
                        .requestMatchers(HttpMethod.GET, "/console/keys", "/console/keys/**")
                        .hasAuthority(KeySignIn.KEYS)
                        .requestMatchers(HttpMethod.GET, "/console/**").hasAuthority(KeySignIn.LOOK)
                        .requestMatchers(HttpMethod.POST, "/console/sign-out").hasAuthority(KeySignIn.LOOK)
                        .requestMatchers(HttpMethod.POST, "/console/keys", "/console/keys/**")
                        .hasAuthority(KeySignIn.KEYS)
                        .anyRequest().hasAuthority(KeySignIn.ACT))
                .formLogin(form -> form
                        .loginPage("/console")
                        .loginProcessingUrl("/console/sign-in")
                        .passwordParameter("key")
                        .successHandler(signedIn(properties))
                        .failureUrl("/console?refused")
                        .permitAll())
                .logout(logout -> logout
                        .logoutUrl("/console/sign-out")
                        .logoutSuccessUrl("/console?signed-out")
                        .invalidateHttpSession(true)
                        .clearAuthentication(true))
                .sessionManagement(session -> session
                        .sessionCreationPolicy(SessionCreationPolicy.IF_REQUIRED)
                        .sessionFixation(fixation -> fixation.changeSessionId()))
                .requestCache(cache -> cache.disable())
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint(new LoginUrlAuthenticationEntryPoint("/console"))
                        .accessDeniedHandler(refused()))
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                        .frameOptions(frame -> frame.deny())
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER)))
                .httpBasic(basic -> basic.disable())
                .build();
    }

    /** The idle limit is set on the session the sign-in made (after its id changed), then the work list. */
    private static AuthenticationSuccessHandler signedIn(ConsoleProperties properties) {
        return (request, response, authentication) -> {
            request.getSession().setMaxInactiveInterval((int) properties.sessionIdle().toSeconds());
            response.sendRedirect(request.getContextPath() + "/console/unresolved");
        };
    }

    /**
     * A post without a valid CSRF token, or an action from a read-only session: 403 and a short page, written
     * here because the refusal happens before Spring MVC (nothing was changed).
     */
    private static AccessDeniedHandler refused() {
        return (request, response, denied) -> {
            if (response.isCommitted()) {
                return;
            }
            response.setStatus(403);
            response.setContentType(MediaType.TEXT_HTML_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            write(response.getOutputStream(), request.getContextPath());
        };
    }

    private static void write(jakarta.servlet.ServletOutputStream out, String contextPath) throws IOException {
        out.write(("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Refused · Payments console</title>
                <link rel="stylesheet" href="%1$s/console/assets/console.css"></head>
                <body><main class="narrow"><h1>Refused</h1>
                <p class="message message-error">This session may not do that, or the form had expired. Nothing was
                changed.</p><p><a href="%1$s/console">Back to the console</a></p></main></body></html>
                """.formatted(contextPath)).getBytes(StandardCharsets.UTF_8));
    }
}
