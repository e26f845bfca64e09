package com.acme.payments.console;

import java.security.Principal;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.acme.payments.common.web.Public;
import com.acme.payments.discrepancy.Discrepancies;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.refund.SecondChargeRefunds;
import com.acme.payments.secondcharge.DuplicateCharge;
import com.acme.payments.secondcharge.DuplicateChargeOrchestrator;
import com.acme.payments.secondcharge.DuplicateChargeStore;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.Valid;

/**
 * Discrepancies (to read: only a person settles them) and second charges with their exit, a full refund through
 * the orchestrator {@code POST /api/admin/duplicate-charges/…/refund} calls, audited the same.
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class ListsConsoleController {

    /** Per source, as the API's list. */
    private static final int LIMIT = 1000;

    private final Discrepancies discrepancies;
    private final DuplicateChargeStore duplicates;
    private final DuplicateChargeOrchestrator secondCharges;

    ListsConsoleController(Discrepancies discrepancies, DuplicateChargeStore duplicates,
            DuplicateChargeOrchestrator secondCharges) {
        this.discrepancies = discrepancies;
        this.duplicates = duplicates;
        this.secondCharges = secondCharges;
    }

    @GetMapping("/console/discrepancies")
    String discrepancies(Model model) {
        model.addAttribute("rows", discrepancies.newestFirst(LIMIT));
        return "console/discrepancies";
    }

    @GetMapping("/console/second-charges")
    String secondCharges(Model model) {
        model.addAttribute("rows", duplicates.all());
        return "console/second-charges";
    }

    @PostMapping("/console/duplicate-charges/{pspPaymentId}/refund")
    @Audited(action = "duplicate-refund", target = "payment:{pspPaymentId}")
    String refundSecondCharge(DuplicateCharge charge, @Valid OperatorNote form, Principal signedIn,
            RedirectAttributes flash) {
        OperatorNote note = Forms.note(form);
        note.asked();
        SecondChargeRefunds.Answer answer = secondCharges.refund(charge, signedIn.getName(), note.reason());
        flash.addFlashAttribute("done", "Second charge " + charge.pspPaymentId() + ": refund "
                + answer.referenceId() + " is " + answer.state() + ".");
        return "redirect:/console/second-charges";
    }
}
