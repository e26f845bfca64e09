package com.acme.payments;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;

import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Scope;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorActionStore;
import com.acme.payments.operator.OperatorAudit;
import com.acme.payments.operator.OperatorNote;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * The operator audit is declared. Every handler a key with an operator's scope may call to change state
 * carries {@link Audited}, hands its {@link OperatorNote} over once its preconditions hold, and only the
 * audit interceptor writes the trail.
 */
class OperatorAuditRulesTests {

    private static final Set<Scope> OPERATORS = Set.of(Scope.PAYMENTS, Scope.OPERATOR, Scope.KEYS);
    private static final Set<RequestMethod> CHANGES = Set.of(RequestMethod.POST, RequestMethod.PUT,
            RequestMethod.PATCH, RequestMethod.DELETE);

    @Test
    void everyOperatorActionIsDeclaredAudited() {
        methods().that(changeStateForAnAdmin()).should().beAnnotatedWith(Audited.class)
                .check(ArchitectureTests.MAIN);
    }

    @Test
    void everyAuditedHandlerHandsOverItsNote() {
        methods().that().areAnnotatedWith(Audited.class).should(handOverAnOperatorNote())
                .check(ArchitectureTests.MAIN);
    }

    @Test
    void onlyTheAuditInterceptorWritesTheTrail() {
        noClasses().that(DescribedPredicate.describe("are not OperatorAudit or nested in it",
                (JavaClass c) -> !c.isEquivalentTo(OperatorAudit.class)
                        && !c.getEnclosingClass().map(e -> e.isEquivalentTo(OperatorAudit.class)).orElse(false)))
                .should().callMethodWhere(DescribedPredicate.describe("the audit trail's writes (record, settle)",
                        (JavaMethodCall call) -> call.getTargetOwner().isEquivalentTo(OperatorActionStore.class)
                                && List.of("record", "settle").contains(call.getName())))
                .check(ArchitectureTests.MAIN);
    }

    /**
     * A POST/PUT/PATCH/DELETE mapping whose {@code @Allow} (on it or its class) admits an operator's scope:
     * {@code payments}, {@code operator} or {@code keys} (what a shop's {@code orders} does is the shop's).
     */
    private static DescribedPredicate<JavaMethod> changeStateForAnAdmin() {
        return DescribedPredicate.describe("change state for an admin key", method -> {
            if (!method.getOwner().getPackageName().startsWith("com.acme.payments") || !changesState(method)) {
                return false;
            }
            Allow allow = method.tryGetAnnotationOfType(Allow.class)
                    .or(() -> method.getOwner().tryGetAnnotationOfType(Allow.class)).orElse(null);
            return allow != null && Arrays.stream(allow.scopes()).anyMatch(OPERATORS::contains);
        });
    }

    private static boolean changesState(JavaMethod method) {
        if (method.isAnnotatedWith(PostMapping.class) || method.isAnnotatedWith(PutMapping.class)
                || method.isAnnotatedWith(PatchMapping.class) || method.isAnnotatedWith(DeleteMapping.class)) {
            return true;
        }
        return method.tryGetAnnotationOfType(RequestMapping.class)
                .map(mapping -> Arrays.stream(mapping.method()).anyMatch(CHANGES::contains)).orElse(false);
    }

    /** {@code OperatorNote.asked()} is called by the handler itself or by a method of its class it calls. */
    private static ArchCondition<JavaMethod> handOverAnOperatorNote() {
        return new ArchCondition<>("call OperatorNote.asked() (directly or through its own class's methods)") {
            @Override
            public void check(JavaMethod handler, ConditionEvents events) {
                Set<JavaCodeUnit> seen = new HashSet<>();
                Deque<JavaCodeUnit> next = new ArrayDeque<>(List.of(handler));
                boolean asks = false;
                while (!next.isEmpty() && !asks) {
                    JavaCodeUnit unit = next.pop();
                    if (!seen.add(unit)) {
                        continue;
                    }
                    for (JavaMethodCall call : unit.getMethodCallsFromSelf()) {
                        if (call.getTargetOwner().isEquivalentTo(OperatorNote.class)
                                && call.getName().equals("asked")) {
                            asks = true;
                        } else if (call.getTargetOwner().equals(handler.getOwner())) {
                            call.getTarget().resolveMember().ifPresent(next::push);
                        }
                    }
                }
                events.add(new SimpleConditionEvent(handler, asks, handler.getFullName()
                        + (asks ? " hands over its OperatorNote" : " never calls OperatorNote.asked(): no entry")));
            }
        };
    }
}
