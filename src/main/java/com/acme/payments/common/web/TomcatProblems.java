package com.acme.payments.common.web;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Installs {@link ProblemErrorReportValve} as the host's error report valve (Tomcat's HTML page otherwise), and
 * lets TRACE through to the filters, where {@link MalformedRequestFilter} answers it 405 as a problem (Tomcat's
 * own 405 for it has no body). It never reaches the servlet, whose TRACE echoes the request.
 */
@Component
class TomcatProblems implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }
}
