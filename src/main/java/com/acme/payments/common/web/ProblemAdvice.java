package com.acme.payments.common.web;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import com.acme.payments.common.web.Problems.FieldProblem;

import tools.jackson.core.JacksonException;

/**
 * The one place where exceptions become RFC 9457 problems. Bodies never carry a stack trace, a SQL
 * message, a key or a header value; unexpected failures get an opaque error id that the log carries.
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> onApiProblem(ApiProblem problem) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), problem.getMessage());
        body.setType(problem.type());
        body.setTitle(problem.title());
        problem.properties().forEach(body::setProperty);
        var response = ResponseEntity.status(problem.status());
        if (problem.retryAfterOrNull() != null) {
            response.header(HttpHeaders.RETRY_AFTER,
                    Long.toString(Math.max(1, problem.retryAfterOrNull().toSeconds())));
        }
        return response.body(body);
    }

    @ExceptionHandler({ CannotGetJdbcConnectionException.class, DataAccessResourceFailureException.class,
            TransientDataAccessResourceException.class, CannotCreateTransactionException.class,
            TransactionSystemException.class })
    // a connection lost at commit (TransactionSystemException) is the same answer: retry; every write is idempotent
    ResponseEntity<ProblemDetail> onDatabaseUnavailable(Exception ex) {
        log.warn("database unavailable: {}", ex.getClass().getSimpleName());
        return simple(ProblemType.DATABASE_UNAVAILABLE, "The service cannot reach its database; retry shortly.");
    }

    @ExceptionHandler(ConcurrencyFailureException.class)
    ResponseEntity<ProblemDetail> onContention(ConcurrencyFailureException ex) {
        log.info("concurrent update conflict: {}", ex.getClass().getSimpleName());
        return simple(ProblemType.CONCURRENT_UPDATE, "Another request changed the same data; retry shortly.");
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> onUnexpected(Exception ex) {
        String errorId = UUID.randomUUID().toString();
        log.error("unexpected failure, errorId={}", errorId, ex);
        ResponseEntity<ProblemDetail> response = simple(ProblemType.INTERNAL_ERROR,
                "The request failed unexpectedly; quote the errorId to support.");
        response.getBody().setProperty("errorId", errorId);
        return response;
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldProblem> errors = new ArrayList<>();
        for (FieldError error : ex.getBindingResult().getFieldErrors()) {
            errors.add(new FieldProblem(error.getField(), error.getDefaultMessage()));
        }
        errors.sort(java.util.Comparator.comparing(FieldProblem::field)); // a stable order, whatever the validator's
        ex.getBindingResult().getGlobalErrors()
                .forEach(e -> errors.add(new FieldProblem(e.getObjectName(), e.getDefaultMessage())));
        return asObject(onApiProblem(new Problems.ValidationFailed(errors)));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (BodySizeLimitFilter.causedByOversizedBody(ex)) {
            return asObject(onApiProblem(new BodySizeLimitFilter.BodyTooLarge()));
        }
        JacksonException jackson = findCause(ex, JacksonException.class);
        if (jackson != null && !jackson.getPath().isEmpty()) {
            String field = RequestBodyConverter.fieldPath(jackson.getPath());
            return asObject(onApiProblem(new Problems.ValidationFailed(
                    List.of(new FieldProblem(field, "has the wrong type or format")))));
        }
        return asObject(simple(ProblemType.MALFORMED_REQUEST,
                "The request body is missing or is not valid JSON."));
    }

    /** Every other Spring MVC exception keeps Spring's status and gets a stable slug. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        if (body instanceof ProblemDetail problem) {
            problem.setType(typeFor(statusCode));
        } else if (body == null && ex instanceof ErrorResponse error) {
            // Spring passes no body for most of its own exceptions (405, 406, 415 …) and renders the exception's
            // own: typed here, or the problem went out without a type
            error.getBody().setType(typeFor(statusCode));
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }

    private static URI typeFor(HttpStatusCode status) {
        ProblemType type = switch (status.value()) {
            case 400 -> ProblemType.BAD_REQUEST;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            case 503 -> ProblemType.SERVICE_UNAVAILABLE;
            default -> null;
        };
        return type != null ? type.uri() : ProblemType.forUnnamedStatus(status.value());
    }

    private static ResponseEntity<ProblemDetail> simple(ProblemType type, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(type.status(), detail);
        body.setType(type.uri());
        body.setTitle(type.title());
        var response = ResponseEntity.status(type.status());
        if (type.retryAfter()) {
            response.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return response.body(body);
    }

    private static <T extends Throwable> T findCause(Throwable ex, Class<T> type) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static ResponseEntity<Object> asObject(ResponseEntity<ProblemDetail> response) {
        return (ResponseEntity) response;
    }

}
