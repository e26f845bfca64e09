package com.acme.payments.console;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The console's own stylesheet, served by the service under {@code /console/assets/} (no CDN, nothing else). */
@Configuration(proxyBeanMethods = false)
class ConsoleWebConfig implements WebMvcConfigurer {

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/console/assets/**").addResourceLocations("classpath:/console/assets/");
    }
}
