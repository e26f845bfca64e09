package com.acme.payments.operator;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Lets {@link OperatorAudit} see each request's answer, to record the outcome of the actions it recorded. */
@Configuration(proxyBeanMethods = false)
class AuditWebConfig implements WebMvcConfigurer {

    private final OperatorAudit audit;

    AuditWebConfig(OperatorAudit audit) {
        this.audit = audit;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(audit);
    }
}
