package com.acme.payments.console;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

import com.acme.payments.common.web.Public;

import io.swagger.v3.oas.annotations.Hidden;

/**
 * {@code GET /console}: the sign-in form (one field, {@code key}) when no one is signed in, else the work list.
 * The form posts to {@code /console/sign-in}, which Spring Security answers ({@link ConsoleSecurity}).
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class SignInController {

    @GetMapping("/console")
    String signIn() {
        Authentication signedIn = SecurityContextHolder.getContext().getAuthentication();
        boolean anonymous = signedIn == null || signedIn instanceof AnonymousAuthenticationToken;
        return anonymous ? "console/sign-in" : "redirect:/console/unresolved";
    }
}
