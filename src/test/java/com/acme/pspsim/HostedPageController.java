package com.acme.pspsim;

import java.net.URI;
import java.util.Map;

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
 * The hosted payment page at a deposit's {@code redirectUrl}: a plain form where a person (or a test)
 * pays, declines or only authorizes. Each click moves the payment, sends its signed webhook and
 * redirects (303) to the payment's {@code returnUrl}.
 */
@RestController
class HostedPageController {

    private static final Map<String, String> ACTIONS = Map.of("pay", Payment.COMPLETED, "decline", Payment.DECLINED,
            "authorize", Payment.AUTHORIZED);

    private final PaymentBook payments;
    private final Gateway gateway;

    HostedPageController(PaymentBook payments, Gateway gateway) {
        this.payments = payments;
        this.gateway = gateway;
    }

    @GetMapping(path = "/hosted/{id}", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<String> page(@PathVariable String id) {
        Payment p = payments.get(id).orElseThrow(() -> GatewayError.notFound(id));
        String buttons = Payment.CHECKOUT.equals(p.state()) ? """
                <form method="post" action="%1$s/pay"><button id="pay" type="submit">Pay</button></form>
                <form method="post" action="%1$s/decline"><button id="decline" type="submit">Decline</button></form>
                <form method="post" action="%1$s/authorize"><button id="authorize" type="submit">Authorize only</button></form>
                """.formatted(esc(p.id())) : "<p>This payment is no longer open.</p>";
        return html(HttpStatus.OK, """
                <!DOCTYPE html>
                <html><head><meta charset="utf-8"><title>PSP simulator checkout</title></head>
                <body><h1>Pay %s %s</h1>
                <p>Reference <code>%s</code>, payment <code>%s</code>, state <strong id="state">%s</strong></p>
                %s</body></html>
                """.formatted(esc(p.amount().toPlainString()), esc(p.currency()), esc(p.referenceId()), esc(p.id()),
                esc(p.state()), buttons));
    }

    @PostMapping("/hosted/{id}/{action}")
    ResponseEntity<String> click(@PathVariable String id, @PathVariable String action) {
        String target = ACTIONS.get(action);
        if (target == null) {
            return html(HttpStatus.NOT_FOUND, "<p>Unknown action.</p>");
        }
        Payment moved = gateway.settleFromHostedPage(id, target);
        String back = moved.returnUrl() != null ? moved.returnUrl() : "/hosted/" + moved.id();
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create(back)).build();
    }

    @ExceptionHandler(GatewayError.class)
    ResponseEntity<String> refused(GatewayError error) {
        return html(error.status(), "<p>" + esc(error.getMessage()) + "</p>");
    }

    private static ResponseEntity<String> html(HttpStatus status, String body) {
        return ResponseEntity.status(status).contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8)).body(body);
    }

    private static String esc(String s) {
        return s == null ? "" : HtmlUtils.htmlEscape(s);
    }
}
