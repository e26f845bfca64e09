package com.acme.payments.console;

import java.security.Principal;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.acme.payments.common.web.PlainText;
import com.acme.payments.common.web.Public;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;
import com.acme.payments.outbox.DeadEffects;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Dead effects and their exits — redrive, discard (with a reason), resend a delivered one, redrive every match —
 * through {@link DeadEffects}, as {@code /api/admin/outbox/…} does, audited under the same actions and targets.
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class DeadEffectsConsoleController {

    private static final int LIMIT = 200;
    private static final String BACK = "redirect:/console/dead-effects";

    private final DeadEffects effects;

    DeadEffectsConsoleController(DeadEffects effects) {
        this.effects = effects;
    }

    @GetMapping("/console/dead-effects")
    String list(@RequestParam(required = false) String effect, Model model) {
        model.addAttribute("rows", effects.dead(0, LIMIT));
        if (effect != null && !effect.isBlank()) {
            model.addAttribute("found", effects.find(effect.strip()));
        }
        return "console/dead-effects";
    }

    @PostMapping("/console/outbox/{id}/redrive")
    @Audited(action = "redrive", target = "outbox:{id}")
    String redrive(@PathVariable String id, RedirectAttributes flash) {
        DeadEffects.Effect effect = effects.find(id);
        OperatorNote.NONE.asked();
        effects.redrive(effect.id());
        flash.addFlashAttribute("done", "Effect " + effect.id() + " is back in line.");
        return BACK;
    }

    @PostMapping("/console/outbox/{id}/discard")
    @Audited(action = "discard", target = "outbox:{id}")
    String discard(@PathVariable String id, @Valid DiscardForm form, Principal signedIn, RedirectAttributes flash) {
        DeadEffects.Effect effect = effects.find(id);
        new OperatorNote(form.reason()).asked();
        effects.discard(effect.id(), signedIn.getName(), form.reason());
        flash.addFlashAttribute("done", "Effect " + effect.id() + " discarded: the effects behind it go on.");
        return BACK;
    }

    @PostMapping("/console/outbox/{id}/resend")
    @Audited(action = "resend", target = "outbox:{id}")
    String resend(@PathVariable String id, RedirectAttributes flash) {
        DeadEffects.Effect effect = effects.find(id);
        OperatorNote.NONE.asked();
        effects.resend(effect.id());
        flash.addFlashAttribute("done", "Effect " + effect.id() + " will be sent once more, with its original key.");
        return BACK;
    }

    @PostMapping("/console/outbox/redrive")
    @Audited(action = "redrive", target = "outbox:dead")
    String redriveMatching(@RequestParam(required = false) String sink, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String deadSince, RedirectAttributes flash) {
        String onlySink = blankToNull(sink);
        String onlyKind = blankToNull(kind);
        String since = blankToNull(deadSince);
        var filter = DeadEffects.filter(onlySink, onlyKind, since);
        new OperatorNote("sink=" + (onlySink == null ? "any" : onlySink) + " kind="
                + (onlyKind == null ? "any" : onlyKind) + " deadSince=" + (since == null ? "any" : since)).asked();
        int redriven = effects.redriveMatching(filter);
        flash.addFlashAttribute("done", redriven + " dead effects are back in line.");
        return BACK;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Why the effect is given up: kept on the row and in the audit, as the API's discard body. */
    record DiscardForm(@NotBlank @Size(max = 500) @PlainText String reason) {
    }
}
