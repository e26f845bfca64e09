package com.acme.payments.outbox;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;

/**
 * The operators' exits for effects, one place for the API's and the console's: redrive or discard a dead row,
 * resend a delivered one, redrive every matching dead row. Each answers what the row's state allows or throws the
 * problem the API answers ({@code outbox-row-not-dead}, {@code outbox-row-not-sent}, 404).
 */
@Component
public class DeadEffects {

    static final Set<String> SINKS = Set.of("notify", "conversion", "fulfilment", "shop-events");
    /** Rows per statement of a bulk redrive: short transactions, however many rows are dead. */
    private static final int REDRIVE_BATCH = 500;

    private final OutboxAdminStore store;
    private final OutboxStore outbox;
    private final OutboxMetrics metrics;

    DeadEffects(OutboxAdminStore store, OutboxStore outbox, OutboxMetrics metrics) {
        this.store = store;
        this.outbox = outbox;
        this.metrics = metrics;
    }

    /** The dead rows after {@code afterId}, oldest first. */
    public List<Effect> dead(long afterId, int limit) {
        return store.list("dead", afterId, limit).stream().map(Effect::of).toList();
    }

    /** An order's effects still to send (pending or dead), oldest first. */
    public List<Effect> openForOrder(String orderRef) {
        return store.openFor("order", orderRef, 200).stream().map(Effect::of).toList();
    }

    /** An effect the operator named, or 404 (an id that is not a number names none). */
    public Effect find(String id) {
        return store.find(rowId(id)).map(Effect::of).orElseThrow(() -> new Problems.NotFound("Outbox row"));
    }

    public void redrive(long id) {
        settled(id, store.redrive(id));
    }

    public void discard(long id, String actor, String reason) {
        settled(id, store.discard(id, actor, reason));
    }

    public void resend(long id) {
        OutboxAdminStore.RowChange result = store.resend(id);
        if (result == OutboxAdminStore.RowChange.WRONG_STATE) {
            throw new OutboxRowNotSent(id);
        }
        settled(id, result);
    }

    /** Every dead row matching the filter back in line, a batch per statement; how many. */
    public int redriveMatching(OutboxStore.DeadFilter filter) {
        int redriven = 0;
        long afterId = 0;
        if (filter.allKinds() || !filter.kinds().isEmpty()) {
            OutboxStore.Batch batch;
            do {
                batch = outbox.redriveMatching(filter, afterId, REDRIVE_BATCH);
                redriven += batch.rows();
                afterId = batch.lastId();
            } while (batch.rows() == REDRIVE_BATCH);
        }
        metrics.refreshNow();
        return redriven;
    }

    /**
     * Which dead rows a bulk redrive takes, each given field a condition: {@code sink} one of the sinks,
     * {@code kind} an effect's kind, {@code deadSince} RFC 3339. Invalid ones are a 400 naming the field.
     */
    public static OutboxStore.DeadFilter filter(String sink, String kind, String deadSince) {
        if (sink != null && !SINKS.contains(sink)) {
            throw Problems.ValidationFailed.of("sink", "must be one of notify, conversion, fulfilment, shop-events");
        }
        if (kind != null && kind.isBlank()) {
            throw Problems.ValidationFailed.of("kind", "must not be blank");
        }
        Instant since = Instant.EPOCH;
        if (deadSince != null) {
            try {
                since = OffsetDateTime.parse(deadSince).toInstant();
            } catch (DateTimeParseException e) {
                throw Problems.ValidationFailed.of("deadSince", "must be an RFC 3339 date-time");
            }
        }
        Map<String, String> sinkByKind = SinkRoutes.sinkByKind();
        List<String> kinds;
        if (kind != null) {
            // a kind of another sink than the one asked for matches nothing
            kinds = sink == null || sink.equals(sinkByKind.get(kind)) ? List.of(kind) : List.of();
        } else if (sink != null) {
            kinds = sinkByKind.entrySet().stream().filter(e -> e.getValue().equals(sink))
                    .map(Map.Entry::getKey).toList();
        } else {
            return new OutboxStore.DeadFilter(true, List.of(), since);
        }
        return new OutboxStore.DeadFilter(false, kinds, since);
    }

    private void settled(long rowId, OutboxAdminStore.RowChange result) {
        if (result == OutboxAdminStore.RowChange.NOT_FOUND) {
            throw new Problems.NotFound("Outbox row");
        }
        if (result == OutboxAdminStore.RowChange.WRONG_STATE) {
            throw new OutboxRowNotDead(rowId);
        }
        metrics.refreshNow();
    }

    static long rowId(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new Problems.NotFound("Outbox row");
        }
    }

    /** An effect as the console shows it (the payload stays in the table). */
    public record Effect(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey,
            String state, int attempts, String lastError, Instant createdAt, Instant deadAt, Instant deliveredAt) {

        static Effect of(OutboxAdminStore.Row row) {
            return new Effect(row.id(), row.kind(), row.aggregateType(), row.aggregateId(), row.idempotencyKey(),
                    row.state(), row.attempts(), row.lastError(), row.createdAt(), row.deadAt(), row.deliveredAt());
        }
    }
}
