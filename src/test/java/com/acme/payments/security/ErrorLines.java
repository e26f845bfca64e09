package com.acme.payments.security;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

/** Records every ERROR line any logger writes while open (the root logger's appender), for "no ERROR" checks. */
final class ErrorLines extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    ErrorLines() {
        setContext(root.getLoggerContext());
        start();
        root.addAppender(this);
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
            lines.add(event.getLoggerName() + ": " + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : " (" + event.getThrowableProxy().getClassName() + ")"));
        }
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        root.detachAppender(this);
        stop();
    }
}
