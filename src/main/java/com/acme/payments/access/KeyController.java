package com.acme.payments.access;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.Caller;
import com.acme.payments.common.web.PathLookup;
import com.acme.payments.common.web.PlainText;
import com.acme.payments.common.web.ProblemAnswers;
import com.acme.payments.common.web.ProblemType;
import com.acme.payments.common.web.Scope;
import com.acme.payments.operator.Audited;
import com.acme.payments.operator.OperatorNote;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** Keys issued at run time: issue, list, revoke (scope {@code keys}). */
@RestController
@Allow(scopes = Scope.KEYS)
@Tag(name = "Operations")
class KeyController {

    private final KeyIssuer issuer;
    private final ApiKeyStore store;

    KeyController(KeyIssuer issuer, ApiKeyStore store) {
        this.issuer = issuer;
        this.store = store;
    }

    @PostMapping("/api/admin/keys")
    @Audited(action = "issue-key", target = "keys")
    @Operation(operationId = "issueKey", summary = "Issue a key with scopes; the key is in this answer only")
    @ApiResponse(responseCode = "201", description = "The key (prefix pk_), shown once; only its hash is kept")
    @ProblemAnswers({ ProblemType.VALIDATION_FAILED, ProblemType.MALFORMED_REQUEST })
    ResponseEntity<IssuedKey> issue(Caller caller, @RequestBody @Valid IssueRequest request) {
        Set<Scope> scopes = KeyAdmin.scopes(request.scopes());
        new OperatorNote("name=" + request.name() + " scopes=" + wire(scopes)).asked();
        KeyIssuer.Issued issued = issuer.issue(request.name(), scopes, caller.actor());
        return ResponseEntity.status(HttpStatus.CREATED).body(IssuedKey.of(issued));
    }

    @GetMapping("/api/admin/keys")
    @Operation(operationId = "listKeys", summary = "The keys issued at run time, revoked ones too; never a key")
    List<KeyView> list() {
        return store.all().stream().map(KeyView::of).toList();
    }

    @DeleteMapping("/api/admin/keys/{id}")
    @Audited(action = "revoke-key", target = "key:{id}")
    @Operation(operationId = "revokeKey",
            summary = "Revoke a key: refused (401) by every instance within 5 seconds; again: the first revocation")
    @ApiResponse(responseCode = "200", description = "The key's view with revokedAt")
    @ProblemAnswers(ProblemType.NOT_FOUND)
    KeyView revoke(@KeyIdParameter ApiKeyStore.ApiKey key, Caller caller) {
        OperatorNote.NONE.asked();
        return KeyView.of(issuer.revoke(key.id(), caller.actor()));
    }

    private static String wire(Set<Scope> scopes) {
        return scopes.stream().map(Scope::wireName).collect(Collectors.joining(","));
    }

    /** A key to issue: who holds it (the actor recorded for what it does) and what it may do. */
    record IssueRequest(@NotBlank @Size(max = 100) @PlainText String name,
            @NotNull @Size(min = 1, max = 5) @ArraySchema(schema = @Schema(allowableValues = { "orders", "payments",
                    "operator", "read", "keys" })) List<@NotNull String> scopes) {
    }

    /** The answer to an issue: the only time the key is shown. */
    record IssuedKey(long id, String name, Set<Scope> scopes, String key, Instant createdAt) {

        static IssuedKey of(KeyIssuer.Issued issued) {
            return new IssuedKey(issued.row().id(), issued.row().name(), issued.row().scopes(), issued.key(),
                    issued.row().createdAt());
        }

        @Override
        public String toString() {
            return "IssuedKey[id=" + id + ", name=" + name + "]";
        }
    }

    /** A key as listed: never the key. */
    record KeyView(long id, String name, Set<Scope> scopes, Instant createdAt, Instant lastUsedAt,
            Instant revokedAt) {

        static KeyView of(ApiKeyStore.ApiKey key) {
            return new KeyView(key.id(), key.name(), key.scopes(), key.createdAt(), key.lastUsedAt(),
                    key.revokedAt());
        }
    }

    /** The issued key an admin path names ({@code {id}}), or 404. */
    @Component
    static class ById extends PathLookup<ApiKeyStore.ApiKey> {

        private final ApiKeyStore store;

        ById(ApiKeyStore store) {
            super(ApiKeyStore.ApiKey.class, "id", "Key");
            this.store = store;
        }

        @Override
        protected Optional<ApiKeyStore.ApiKey> find(String id) {
            try {
                return store.find(Long.parseLong(id));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
    }

    /** The {@code {id}} path variable a {@link ById} key comes from, for the OpenAPI description. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = "string"))
    @interface KeyIdParameter {
    }
}
