package com.acme.payments.operator;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Scope;
import com.acme.payments.common.web.Allow;

import io.swagger.v3.oas.annotations.Operation;

/** {@code GET /api/admin/actions[?target=…]}: the audit trail, newest first, or one resource's oldest first. */
@RestController
class OperatorActionController {

    private final OperatorActionStore actions;

    OperatorActionController(OperatorActionStore actions) {
        this.actions = actions;
    }

    @GetMapping("/api/admin/actions")
    @Operation(operationId = "listOperatorActions")
    @Allow(scopes = Scope.OPERATOR)
    List<OperatorActionStore.Action> list(@RequestParam(required = false) String target) {
        if (target == null || target.isBlank()) {
            return actions.latest(200);
        }
        return actions.forTarget(target.length() > 300 ? target.substring(0, 300) : target);
    }
}
