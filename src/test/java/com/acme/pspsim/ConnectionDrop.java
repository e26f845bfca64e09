package com.acme.pspsim;

import java.lang.reflect.Field;

import org.apache.catalina.connector.Response;
import org.apache.catalina.connector.ResponseFacade;
import org.apache.coyote.ActionCode;

import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;

/**
 * Closes the client's connection without writing a byte, as a crashed provider or a proxy cutting
 * the line would: the caller sees an EOF or reset, never a status. It asks Tomcat itself to close
 * the socket now ({@code ActionCode.CLOSE_NOW}, what Tomcat does after an error on a committed
 * answer); the facade does not expose its connector response, hence the one reflective read.
 */
final class ConnectionDrop {

    private static final Field CONNECTOR_RESPONSE;

    static {
        try {
            CONNECTOR_RESPONSE = ResponseFacade.class.getDeclaredField("response");
            CONNECTOR_RESPONSE.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ConnectionDrop() {
    }

    static void drop(ServletResponse response) {
        ServletResponse r = response;
        while (r instanceof ServletResponseWrapper wrapper) {
            r = wrapper.getResponse();
        }
        if (!(r instanceof ResponseFacade facade)) {
            throw new IllegalStateException("dropping a connection needs Tomcat, not " + r.getClass().getName());
        }
        try {
            Response connectorResponse = (Response) CONNECTOR_RESPONSE.get(facade);
            connectorResponse.getCoyoteResponse().action(ActionCode.CLOSE_NOW, null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
