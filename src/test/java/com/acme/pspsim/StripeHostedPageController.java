package com.acme.pspsim;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * The hosted Checkout page at a session's {@code url} ({@code /stripe/pay/<id>}): a plain form where a
 * person (or a test) pays, is declined, pays with an async method, or goes back. Pay and async complete
 * the session and go (303) to its {@code success_url}; a decline stays on the page, as Checkout lets
 * the customer try again; back goes to {@code cancel_url} and changes nothing. While an async payment
 * is processing the page offers its outcome (succeeded or failed).
 */
@RestController
class StripeHostedPageController {

    private static final Set<String> CONFIRM = Set.of("pay", "decline", "async");

    private final StripeBook book;
    private final StripeAccount account;

    StripeHostedPageController(StripeBook book, StripeAccount account) {
        this.book = book;
        this.account = account;
    }

    @GetMapping(path = "/stripe/pay/{id}", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<String> page(@PathVariable String id) {
        String[] shown = book.locked(b -> {
            StripeSession s = b.session(id).orElseThrow(() -> StripeError.noSuch("checkout.session", "session", id));
            String intentStatus = s.paymentIntent == null ? "none"
                    : b.intent(s.paymentIntent).map(pi -> pi.status).orElse("none");
            return new String[] { s.id, String.valueOf(s.amountTotal), s.currency, s.clientReferenceId, s.status,
                    s.paymentStatus, intentStatus };
        });
        String buttons;
        if ("open".equals(shown[4])) {
            buttons = """
                    <form method="post" action="/stripe/pay/%1$s/pay"><button id="pay" type="submit">Pay</button></form>
                    <form method="post" action="/stripe/pay/%1$s/decline"><button id="decline" type="submit">Pay with a card that is declined</button></form>
                    <form method="post" action="/stripe/pay/%1$s/async"><button id="async" type="submit">Pay by bank debit (async)</button></form>
                    <form method="post" action="/stripe/pay/%1$s/back"><button id="back" type="submit">Back to the shop</button></form>
                    """.formatted(esc(shown[0]));
        } else if ("processing".equals(shown[6])) {
            buttons = """
                    <p>The bank debit is processing.</p>
                    <form method="post" action="/stripe/pay/%1$s/async-succeeded"><button id="async-succeeded" type="submit">Debit succeeds</button></form>
                    <form method="post" action="/stripe/pay/%1$s/async-failed"><button id="async-failed" type="submit">Debit fails</button></form>
                    """.formatted(esc(shown[0]));
        } else {
            buttons = "<p>This Checkout Session is no longer active.</p>";
        }
        return html(HttpStatus.OK, """
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>Stripe simulator checkout</title></head>
                <body><h1>Pay %s %s (minor units)</h1>
                <p>Reference <code>%s</code>, session <code>%s</code>, status <strong id="status">%s</strong>,
                payment <strong id="payment_status">%s</strong>, PaymentIntent <strong id="intent_status">%s</strong></p>
                %s</body></html>
                """.formatted(esc(shown[1]), esc(shown[2]), esc(shown[3]), esc(shown[0]), esc(shown[4]),
                esc(shown[5]), esc(shown[6]), buttons));
    }

    @PostMapping("/stripe/pay/{id}/{action}")
    ResponseEntity<String> click(@PathVariable String id, @PathVariable String action) {
        StripeSession s;
        if (CONFIRM.contains(action)) {
            s = account.confirm(id, action);
        } else if (action.equals("async-succeeded") || action.equals("async-failed")) {
            s = account.settleAsync(id, action.equals("async-succeeded"));
        } else if (action.equals("back")) {
            s = book.session(id).orElseThrow(() -> StripeError.noSuch("checkout.session", "session", id));
            return redirect(s.cancelUrl != null ? s.cancelUrl : "/stripe/pay/" + id);
        } else {
            return html(HttpStatus.NOT_FOUND, "<p>Unknown action.</p>");
        }
        boolean stay = !"complete".equals(s.status) || action.startsWith("async-");
        return redirect(stay || s.successUrl == null ? "/stripe/pay/" + id : successUrl(s));
    }

    /** Checkout fills {@code {CHECKOUT_SESSION_ID}} in the success URL. */
    private static String successUrl(StripeSession s) {
        return s.successUrl.replace("{CHECKOUT_SESSION_ID}", s.id);
    }

    @ExceptionHandler(StripeError.class)
    ResponseEntity<String> refused(StripeError error) {
        return html(error.status() == HttpStatus.NOT_FOUND ? HttpStatus.NOT_FOUND : HttpStatus.CONFLICT,
                "<p>" + esc(error.getMessage()) + "</p>");
    }

    private static ResponseEntity<String> redirect(String to) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create(to)).build();
    }

    private static ResponseEntity<String> html(HttpStatus status, String body) {
        return ResponseEntity.status(status).contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .body(body);
    }

    private static String esc(String s) {
        return s == null ? "" : HtmlUtils.htmlEscape(s);
    }
}
