package com.acme.payments.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

import com.acme.payments.common.web.AccessRule;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.responses.ApiResponses;

/**
 * Each operation's problem answers, from its {@link ProblemAnswers} plus those every endpoint can give:
 * 401/403 where a credential is required (the {@code @Allow} the access check enforces: another order's token is
 * {@code forbidden}, a key without the scope {@code insufficient-scope}), 413, 500, 503.
 * One response per status, listing its {@link ProblemType}s; responses in status order.
 */
class ProblemDocs implements OperationCustomizer {

    private static final List<ProblemType> EVERYWHERE = List.of(ProblemType.PAYLOAD_TOO_LARGE,
            ProblemType.INTERNAL_ERROR, ProblemType.DATABASE_UNAVAILABLE, ProblemType.CONCURRENT_UPDATE);

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        List<ProblemType> types = new ArrayList<>();
        ProblemAnswers answers = handler.getMethodAnnotation(ProblemAnswers.class);
        if (answers != null) {
            types.addAll(List.of(answers.value()));
        }
        if (AccessRule.allowOf(handler) != null) {
            types.addAll(List.of(ProblemType.UNAUTHORIZED, ProblemType.FORBIDDEN, ProblemType.INSUFFICIENT_SCOPE));
        }
        types.addAll(EVERYWHERE);
        Map<Integer, List<ProblemType>> byStatus = new TreeMap<>();
        for (ProblemType type : types) {
            List<ProblemType> listed = byStatus.computeIfAbsent(type.status().value(), s -> new ArrayList<>());
            if (!listed.contains(type)) {
                listed.add(type);
            }
        }
        byStatus.forEach((status, listed) -> operation.getResponses()
                .addApiResponse(Integer.toString(status), ProblemCatalog.response(status, listed)));
        ApiResponses sorted = new ApiResponses();
        new TreeMap<>(operation.getResponses()).forEach(sorted::addApiResponse);
        operation.setResponses(sorted);
        return operation;
    }
}
