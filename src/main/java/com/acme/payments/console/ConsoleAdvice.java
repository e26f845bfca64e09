package com.acme.payments.console;

import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.validation.BindException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.servlet.ModelAndView;

import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.common.web.Problems.FieldProblem;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The console's pages share who is signed in and what they may do, and show a rule's refusal (404, 409, a
 * field's 400) as a readable page with the API's title and detail, under the API's status — so the audit records
 * the same outcome as for the API — never a stack trace. Ahead of the API's problem advice for these controllers.
 */
@ControllerAdvice(basePackageClasses = ConsoleAdvice.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleAdvice {

    private static final Logger log = LoggerFactory.getLogger(ConsoleAdvice.class);
    private static final Display DISPLAY = new Display();

    @ModelAttribute("show")
    Display show() {
        return DISPLAY;
    }

    @ModelAttribute("who")
    String who() {
        Authentication signedIn = SecurityContextHolder.getContext().getAuthentication();
        return signedIn == null ? null : signedIn.getName();
    }

    @ModelAttribute("canAct")
    boolean canAct() {
        return has(KeySignIn.ACT);
    }

    @ModelAttribute("canManageKeys")
    boolean canManageKeys() {
        return has(KeySignIn.KEYS);
    }

    static boolean has(String authority) {
        Authentication signedIn = SecurityContextHolder.getContext().getAuthentication();
        return signedIn != null && signedIn.getAuthorities().stream().anyMatch(a -> authority.equals(a.getAuthority()));
    }

    @ExceptionHandler(ApiProblem.class)
    ModelAndView onProblem(ApiProblem problem, HttpServletResponse response) {
        if (problem.retryAfterOrNull() != null) {
            response.setHeader(HttpHeaders.RETRY_AFTER,
                    Long.toString(Math.max(1, problem.retryAfterOrNull().toSeconds())));
        }
        List<String> fields = problem.properties().get("errors") instanceof List<?> errors
                ? errors.stream().filter(FieldProblem.class::isInstance).map(FieldProblem.class::cast)
                        .map(e -> e.field() + ": " + e.message()).toList()
                : List.of();
        return page(problem.status(), problem.title(), problem.getMessage(), fields);
    }

    @ExceptionHandler(BindException.class)
    ModelAndView onInvalidForm(BindException invalid) {
        List<String> fields = invalid.getFieldErrors().stream()
                .map(e -> e.getField() + ": " + e.getDefaultMessage()).toList();
        return page(HttpStatus.BAD_REQUEST, "Validation failed", "The form has invalid fields.", fields);
    }

    @ExceptionHandler(Exception.class)
    ModelAndView onUnexpected(Exception ex) {
        String errorId = UUID.randomUUID().toString();
        log.error("console request failed unexpectedly, errorId={}", errorId, ex);
        return page(HttpStatus.INTERNAL_SERVER_ERROR, "Something went wrong",
                "The request failed unexpectedly; quote error id " + errorId + " to support. Read the resource "
                        + "before trying again: the action may or may not have happened.", List.of());
    }

    private static ModelAndView page(HttpStatus status, String title, String detail, List<String> fields) {
        ModelAndView page = new ModelAndView("console/problem", status);
        page.addObject("title", title);
        page.addObject("detail", detail);
        page.addObject("fields", fields);
        page.addObject("status", status.value());
        page.addObject("show", DISPLAY);
        ConsoleAdvice advice = new ConsoleAdvice();
        page.addObject("who", advice.who());
        page.addObject("canAct", advice.canAct());
        page.addObject("canManageKeys", advice.canManageKeys());
        return page;
    }
}
