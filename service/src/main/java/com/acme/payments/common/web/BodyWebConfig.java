package com.acme.payments.common.web;

import java.util.List;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import tools.jackson.databind.json.JsonMapper;

/** Registers the request body reader (ahead of Spring's JSON converter) and the path lookups with Spring MVC. */
@Configuration(proxyBeanMethods = false)
class BodyWebConfig implements WebMvcConfigurer {

    private final JsonMapper json;
    private final PathLookupResolver lookups;

    BodyWebConfig(JsonMapper json, PathLookupResolver lookups) {
        this.json = json;
        this.lookups = lookups;
    }

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
        builder.addCustomConverter(new RequestBodyConverter(json));
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(lookups);
    }
}
