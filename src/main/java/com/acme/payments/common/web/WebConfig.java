package com.acme.payments.common.web;

import java.util.List;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import tools.jackson.databind.json.JsonMapper;

/**
 * Registers the request's edge with Spring MVC (access is decided before, in {@link SecuritySetup}'s chain): the
 * {@link Caller} resolver, the
 * {@link PathLookup}s (each resolves its row type's parameters) and the request body reader (ahead of
 * Spring's JSON converter).
 */
@Configuration(proxyBeanMethods = false)
class WebConfig implements WebMvcConfigurer {

    private final CallerResolver callerResolver;
    private final List<PathLookup<?>> lookups;
    private final JsonMapper json;

    WebConfig(CallerResolver callerResolver, List<PathLookup<?>> lookups, JsonMapper json) {
        this.callerResolver = callerResolver;
        this.lookups = lookups;
        this.json = json;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(callerResolver);
        resolvers.addAll(lookups);
    }

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
        builder.addCustomConverter(new RequestBodyConverter(json));
    }
}
