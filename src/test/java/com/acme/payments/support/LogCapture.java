package com.acme.payments.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

/**
 * Records the service's log events with the MDC they were logged with (read on the logging thread, as
 * the structured-log encoder does), for tests that check what a log line carries. Close it after use.
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    public record Line(String message, Map<String, String> mdc) {
    }

    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final Logger logger;

    public LogCapture(String loggerName) {
        this.logger = (Logger) LoggerFactory.getLogger(loggerName);
        setContext(logger.getLoggerContext());
        start();
        logger.addAppender(this);
    }

    @Override
    protected void append(ILoggingEvent event) {
        lines.add(new Line(event.getFormattedMessage(), Map.copyOf(event.getMDCPropertyMap())));
    }

    /** The first line whose message starts with {@code prefix}. */
    public Line first(String prefix) {
        return lines.stream().filter(l -> l.message().startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no log line starting with: " + prefix));
    }

    /** Whether any line's message starts with {@code prefix}. */
    public boolean any(String prefix) {
        return lines.stream().anyMatch(l -> l.message().startsWith(prefix));
    }

    @Override
    public void close() {
        logger.detachAppender(this);
        stop();
    }
}
