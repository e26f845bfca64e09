package com.acme.payments.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.logback.StructuredLogEncoder;

import com.acme.payments.support.IntegrationTest;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;

/**
 * "Logs nobody can forge": a request value in a log line cannot start a line of its own, drive the terminal
 * or reorder what is read, in the development pattern (the test profile's) as in the production JSON (ECS).
 */
class LogEscapingIntegrationTests extends IntegrationTest {

    /** CR/LF that would forge an ERROR line, an ANSI colour, a bidi override, a zero-width joiner. */
    private static final String HOSTILE = "ord-1\r\n2026-01-01T00:00:00Z ERROR forged\u001b[31mred\u202Eevil\u200Dx\u0085y";

    @Test
    @DisplayName("the development pattern escapes CR, LF, ESC and every other control or format character")
    void developmentPatternEscapesControlCharacters() {
        String line = render(consoleEncoder());

        assertThat(line).endsWith("\n");
        String message = line.substring(0, line.length() - System.lineSeparator().length());
        assertThat(message).doesNotContain("\r", "\n", "\u001b", "\u202E", "\u200D", "\u0085");
        assertThat(message).contains("ord-1\\r\\n2026-01-01T00:00:00Z ERROR forged\\e[31mred?evil?x?y");
    }

    @Test
    @DisplayName("the production JSON (ECS) keeps a value on its line and writes format characters as \\uXXXX")
    void productionJsonEscapesControlAndFormatCharacters() {
        StructuredLogEncoder ecs = new StructuredLogEncoder();
        ecs.setContext(context());
        ecs.setFormat("ecs");
        ecs.start();
        try {
            String line = render(ecs);
            assertThat(line.strip()).doesNotContain("\r", "\n", "\u001b", "\u202E", "\u200D", "\u0085");
            String message = tools.jackson.databind.json.JsonMapper.builder().build().readTree(line).path("message")
                    .asString();
            assertThat(message).contains("ord-1\r\n2026-01-01T00:00:00Z ERROR forged\u001b[31mred\\u202Eevil\\u200Dx");
        } finally {
            ecs.stop();
        }
    }

    private static String render(Encoder<ch.qos.logback.classic.spi.ILoggingEvent> encoder) {
        Logger logger = (Logger) LoggerFactory.getLogger(LogEscapingIntegrationTests.class);
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.WARN, "refused orderRef={}", null,
                new Object[] { HOSTILE });
        return new String(encoder.encode(event), StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Encoder<ch.qos.logback.classic.spi.ILoggingEvent> consoleEncoder() {
        Logger root = context().getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent> console =
                (ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent>) root.getAppender("CONSOLE");
        assertThat(console).as("the console appender").isNotNull();
        return console.getEncoder();
    }

    private static LoggerContext context() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }
}
