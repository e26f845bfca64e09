package com.acme.payments.console;

import java.security.Principal;
import java.util.Set;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.acme.payments.checkout.Attempt;
import com.acme.payments.checkout.CheckoutOrchestrator;
import com.acme.payments.common.web.Public;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.refund.Refund;
import com.acme.payments.refund.RefundOrchestrator;
import com.acme.payments.sweep.Sweeps;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.Valid;

/**
 * The unresolved list ({@code GET /api/admin/unresolved}'s rows) and its exit: abandon an UNKNOWN checkout attempt
 * or refund with a reason, through the same orchestrators as {@code POST /api/admin/attempts/…/abandon} and
 * {@code …/refunds/…/abandon} (the PSP asked once more first), audited under the same action and target.
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class UnresolvedConsoleController {

    /** Per kind, as the API's list. */
    private static final int LIMIT = 1000;
    /** The kinds with an abandon exit; a capture or void settles by the sweep alone. */
    static final Set<String> ATTEMPTS = Set.of("checkout");
    static final Set<String> REFUNDS = Set.of("refund", "duplicate_refund");

    private final Sweeps sweeps;
    private final CheckoutOrchestrator checkouts;
    private final RefundOrchestrator refunds;

    UnresolvedConsoleController(Sweeps sweeps, CheckoutOrchestrator checkouts, RefundOrchestrator refunds) {
        this.sweeps = sweeps;
        this.checkouts = checkouts;
        this.refunds = refunds;
    }

    @GetMapping("/console/unresolved")
    String list(Model model) {
        model.addAttribute("rows", sweeps.unresolved(LIMIT));
        model.addAttribute("attemptKinds", ATTEMPTS);
        model.addAttribute("refundKinds", REFUNDS);
        return "console/unresolved";
    }

    @PostMapping("/console/attempts/{referenceId}/abandon")
    @Audited(action = "abandon", target = "attempt:{referenceId}")
    String abandonAttempt(Attempt attempt, @Valid OperatorNote form, Principal signedIn, RedirectAttributes flash) {
        OperatorNote note = Forms.note(form);
        note.asked();
        checkouts.abandon(attempt.referenceId(), signedIn.getName(), note.reason());
        flash.addFlashAttribute("done", "Checkout attempt " + attempt.referenceId()
                + " abandoned: FAILED, its order free for a new attempt.");
        return "redirect:/console/unresolved";
    }

    @PostMapping("/console/refunds/{referenceId}/abandon")
    @Audited(action = "abandon", target = "refund:{referenceId}")
    String abandonRefund(Refund refund, @Valid OperatorNote form, Principal signedIn, RedirectAttributes flash) {
        OperatorNote note = Forms.note(form);
        note.asked();
        refunds.abandon(refund.referenceId(), signedIn.getName(), note.reason());
        flash.addFlashAttribute("done", "Refund " + refund.referenceId()
                + " abandoned: FAILED, its amount released.");
        return "redirect:/console/unresolved";
    }
}
