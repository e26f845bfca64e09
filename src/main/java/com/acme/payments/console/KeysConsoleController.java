package com.acme.payments.console;

import java.security.Principal;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.acme.payments.access.KeyAdmin;
import com.acme.payments.common.web.PlainText;
import com.acme.payments.common.web.Problems;
import com.acme.payments.common.web.Public;
import com.acme.payments.common.web.Scope;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * The keys issued at run time, for a session whose key holds {@code keys} ({@link ConsoleSecurity} refuses any
 * other, GET and POST): listed, issued (the key on the answer page only, never kept in the session) and revoked,
 * through {@link KeyAdmin} as {@code /api/admin/keys} does, audited under the same actions and targets.
 */
@Controller
@Hidden
@Public("a page for people: ConsoleSecurity's chain and its session decide, not a bearer key")
class KeysConsoleController {

    private final KeyAdmin keys;

    KeysConsoleController(KeyAdmin keys) {
        this.keys = keys;
    }

    @GetMapping("/console/keys")
    String list(Model model) {
        model.addAttribute("keys", keys.all());
        model.addAttribute("scopes", Scope.values());
        return "console/keys";
    }

    @PostMapping("/console/keys")
    @Audited(action = "issue-key", target = "keys")
    @ResponseStatus(HttpStatus.CREATED)
    String issue(@Valid IssueForm form, Principal signedIn, Model model) {
        if (form.scopes() == null || form.scopes().isEmpty()) {
            throw Problems.ValidationFailed.of("scopes", "pick at least one");
        }
        Set<Scope> scopes = KeyAdmin.scopes(form.scopes());
        new OperatorNote("name=" + form.name() + " scopes="
                + scopes.stream().map(Scope::wireName).collect(Collectors.joining(","))).asked();
        model.addAttribute("issued", keys.issue(form.name(), scopes, signedIn.getName()));
        return "console/key-issued";
    }

    @PostMapping("/console/keys/{id}/revoke")
    @Audited(action = "revoke-key", target = "key:{id}")
    String revoke(@PathVariable String id, Principal signedIn, RedirectAttributes flash) {
        KeyAdmin.Key key = keys.find(id);
        OperatorNote.NONE.asked();
        keys.revoke(key.id(), signedIn.getName());
        flash.addFlashAttribute("done", "Key " + key.name() + " revoked: every instance refuses it within seconds.");
        return "redirect:/console/keys";
    }

    /** A key to issue, as the API's body: who holds it and the scopes ticked. */
    record IssueForm(@NotBlank @Size(max = 100) @PlainText String name, @Size(max = 5) List<String> scopes) {
    }
}
