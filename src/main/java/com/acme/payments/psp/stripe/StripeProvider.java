package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.PspCallMetrics.CAPTURE;
import static com.acme.payments.psp.PspCallMetrics.CREATE;
import static com.acme.payments.psp.PspCallMetrics.FIND;
import static com.acme.payments.psp.PspCallMetrics.GET;
import static com.acme.payments.psp.PspCallMetrics.VOID;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import com.acme.payments.psp.CreatePayment;
import com.acme.payments.psp.PaymentOutcomeUnknown;
import com.acme.payments.psp.PaymentProvider;
import com.acme.payments.psp.PayloadFaultMetrics;
import com.acme.payments.psp.PspCallMetrics;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.psp.PspProperties;
import com.acme.payments.psp.PspRejected;
import com.acme.payments.psp.stripe.StripePspClient.Replayed;
import com.acme.payments.psp.stripe.StripePspClient.Reply;
import com.acme.payments.psp.stripe.StripeRequests.Fixed;
import com.acme.payments.psp.stripe.StripeSendStore.ReplayClosed;
import com.acme.payments.psp.stripe.StripeSendStore.Send;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe's adapter of the {@link PaymentProvider} port ({@code PSP_PROVIDER=stripe}), by the contract's
 * table (http-contract.md, "Stripe as the PSP"): a checkout is a Checkout Session, a refund a Refund of
 * its PaymentIntent, capture and void act on the PaymentIntent; every create carries our reference as
 * {@code Idempotency-Key}. Stripe's states and shapes become ours in {@link StripeObjects}; the rules stay
 * in the flows.
 *
 * <p>Why a reconcile may send the create again here, when the Gateway's never does: Stripe deduplicates on
 * the key. For at least 24 hours it answers a repeated request with the stored result of the first, or runs
 * it now if the first never began executing — the same request can create at most one session. So while
 * the session could still be made ({@code expires_at} more than {@value #REPLAY_MARGIN_MINUTES} minutes
 * ahead: Stripe refuses a session closer to its expiry than 30 minutes), the reconcile sends the stored bytes
 * again. Where the replay cannot answer (a stored 5xx, a key still in flight, no time left) it lists the
 * sessions created around the claim instead; a listing taken past {@code payments.sweep.in-flight-age} after
 * the last send that finds none proves nothing was created (docs/providers.md).
 *
 * <p>Its settings are read from this package ({@link StripeRequiredSettings} for {@code stripe.api-key},
 * {@code stripe.api-base} by name) rather than through billing's {@code StripeProperties}: the {@code stripe}
 * package routes PSP webhooks to {@code psp}, and a dependency back would be a cycle.
 */
@Component
@ConditionalOnProperty(prefix = "payments.psp", name = "provider", havingValue = "stripe")
public class StripeProvider implements PaymentProvider {

    private static final Logger log = LoggerFactory.getLogger(StripeProvider.class);
    static final int REPLAY_MARGIN_MINUTES = 31;
    /** Stripe keeps a key at least 24 h; past this age a refund's key may be gone, so it is only looked up. */
    static final Duration REFUND_KEY_WINDOW = Duration.ofHours(23);
    /** Slack for the two clocks around the claim and the last send in a session listing. */
    static final Duration LISTING_SLACK = Duration.ofSeconds(60);
    static final int PAGE = 100;
    static final int MAX_PAGES = 20;
    private static final String SESSIONS = "/v1/checkout/sessions";

    private final StripePspClient stripe;
    private final StripeSendStore sends;
    private final StripePspProperties properties;
    private final JsonMapper json;
    private final Clock clock;
    private final Duration inFlightAge;

    /**
     * The key comes from {@link StripeRequiredSettings}, so a missing {@code STRIPE_API_KEY} (or
     * {@code STRIPE_WEBHOOK_SECRET}) has failed the start with its one line before this adapter is built.
     */
    @Autowired
    StripeProvider(StripePspProperties properties, PspProperties psp, StripeSendStore sends,
            RestClient.Builder builder, JsonMapper json, PayloadFaultMetrics faults, PspCallMetrics calls, Clock clock,
            StripeRequiredSettings required,
            @Value("${stripe.api-base:https://api.stripe.com}") String apiBase,
            @Value("${payments.sweep.in-flight-age:5m}") Duration inFlightAge) {
        this(properties, psp, sends, builder, json, faults, calls, clock, required.apiKey(), apiBase, inFlightAge);
    }

    StripeProvider(StripePspProperties properties, PspProperties psp, StripeSendStore sends,
            RestClient.Builder builder, JsonMapper json, PayloadFaultMetrics faults, PspCallMetrics calls, Clock clock,
            String apiKey, String apiBase, Duration inFlightAge) {
        if (apiKey == null || apiKey.isBlank()) { // only a direct construction gets here without one
            throw new IllegalStateException("STRIPE_API_KEY is not set (required with PSP_PROVIDER=stripe)");
        }
        this.properties = properties;
        this.sends = sends;
        this.json = json;
        this.clock = clock;
        this.inFlightAge = inFlightAge;
        this.stripe = new StripePspClient(builder, json, faults, calls, apiBase.strip(), apiKey.strip(),
                psp.connectTimeout(), psp.readTimeout(), psp.userAgent());
    }

    /** The session's every parameter, {@code expires_at} included, fixed now, at the claim. */
    @Override
    public String fixRequest(CreatePayment request) {
        if (request.isRefund()) {
            return null;
        }
        try {
            return StripeRequests.session(request, clock.instant(), properties.sessionLifetime(),
                    properties.captureMethod()).toJson(json);
        } catch (StripeMoney.AmountNotSupported inexact) {
            return null; // create() refuses it before sending anything
        }
    }

    @Override
    public Optional<String> refusesAmount(BigDecimal amount, String currency) {
        return StripeMoney.refusal(amount, currency);
    }

    @Override
    public PspPayment create(CreatePayment request) {
        if (request.isRefund()) {
            String form = StripeRequests.refund(onPaymentIntent(request));
            sends.recordSend(request.referenceId(), clock.instant());
            return stripe.post(CREATE, "/v1/refunds", form, request.referenceId(), StripeObjects::fromRefund);
        }
        Fixed fixed = fixedOrNew(request);
        sends.recordSend(request.referenceId(), clock.instant());
        return stripe.post(CREATE, SESSIONS, fixed.form(), request.referenceId(), StripeObjects::fromSession);
    }

    /** By the id's prefix: a session (with its PaymentIntent expanded), a PaymentIntent, a refund. */
    @Override
    public Optional<PspPayment> get(String paymentId) {
        String path;
        Map<String, String> query = Map.of();
        if (paymentId.startsWith("cs_")) {
            path = "/v1/checkout/sessions/" + paymentId;
            query = Map.of("expand[]", "payment_intent");
        } else if (paymentId.startsWith("pi_")) {
            path = "/v1/payment_intents/" + paymentId;
        } else if (paymentId.startsWith("re_")) {
            path = "/v1/refunds/" + paymentId;
        } else {
            return Optional.empty(); // no object of ours at Stripe has another prefix
        }
        try {
            return Optional.of(stripe.get(GET, path, query, StripeObjects::fromJson));
        } catch (PspRejected rejected) {
            if (rejected.status() == 404) {
                return Optional.empty(); // Stripe's error object says no such object
            }
            throw new PaymentOutcomeUnknown("get answered HTTP " + rejected.status(), rejected);
        }
    }

    @Override
    public Lookup reconcile(CreatePayment original) {
        return original.isRefund() ? reconcileRefund(original) : reconcileSession(original);
    }

    /**
     * The identical request again while Stripe can still make the session; otherwise, or when the replay
     * cannot tell, the listing around the claim — which may prove that nothing was created.
     */
    private Lookup reconcileSession(CreatePayment original) {
        String reference = original.referenceId();
        Fixed fixed = Fixed.fromJson(json, original.fixedRequest());
        if (fixed == null) {
            // not claimed by this adapter (claimed under another provider): look, never prove absence
            return Lookup.found(lookUp(original));
        }
        Optional<Send> sent = sends.find(reference);
        Instant now = clock.instant();
        boolean replayClosed = sent.map(Send::replayClosed).orElse(false);
        if (!replayClosed && fixed.expires().isAfter(now.plus(Duration.ofMinutes(REPLAY_MARGIN_MINUTES)))) {
            sends.recordSend(reference, now);
            Replayed<PspPayment> replay = stripe.replay(SESSIONS, fixed.form(), reference, StripeObjects::fromSession);
            if (replay.notCreated() == null) {
                return Lookup.found(List.of(replay.value()));
            }
            if (replay.refused() != null) {
                return refused(reference, replay.refused());
            }
            Reply reply = replay.notCreated();
            if (reply.status() >= 500 && reply.replayed()) {
                sends.closeReplay(reference, ReplayClosed.STORED_5XX, now);
            } else if (reply.status() == 400 && reply.aboutTheKey()) {
                sends.closeReplay(reference, ReplayClosed.IDEMPOTENCY_ERROR, now);
            }
            log.info("reconcile of referenceId={}: replay answered HTTP {}{}; listing the sessions", reference,
                    reply.status(), reply.replayed() ? " (stored)" : "");
        }
        Instant lastSend = lastSend(fixed, sends.find(reference));
        Instant listedAt = clock.instant();
        List<PspPayment> found = listSessions(fixed.claimed(), lastSend, reference);
        if (!found.isEmpty()) {
            return Lookup.found(found);
        }
        if (Duration.between(lastSend, listedAt).compareTo(inFlightAge) > 0) {
            log.info("reconcile of referenceId={}: no session created between the claim and {} (last send + {})",
                    reference, lastSend.plus(LISTING_SLACK), LISTING_SLACK);
            return Lookup.nothingCreated();
        }
        return Lookup.found(List.of());
    }

    /** Refund parameters are all stored: the same POST with its key, while Stripe surely keeps the key. */
    private Lookup reconcileRefund(CreatePayment request) {
        CreatePayment original = onPaymentIntent(request);
        String reference = original.referenceId();
        Optional<Send> sent = sends.find(reference);
        Instant now = clock.instant();
        boolean keyKept = sent.map(s -> s.firstSentAt().plus(REFUND_KEY_WINDOW).isAfter(now)).orElse(true);
        if (keyKept && !sent.map(Send::replayClosed).orElse(false)) {
            String form = StripeRequests.refund(original);
            sends.recordSend(reference, now);
            Replayed<PspPayment> replay = stripe.replay("/v1/refunds", form, reference, StripeObjects::fromRefund);
            if (replay.notCreated() == null) {
                return Lookup.found(List.of(replay.value()));
            }
            if (replay.refused() != null) {
                return refused(reference, replay.refused());
            }
            Reply reply = replay.notCreated();
            if (reply.status() >= 500 && reply.replayed()) {
                sends.closeReplay(reference, ReplayClosed.STORED_5XX, now);
            }
            log.info("refund reconcile of referenceId={}: replay answered HTTP {}; listing the refunds", reference,
                    reply.status());
        }
        // a refund is never proven absent: an ambiguous one waits for the truth or an operator
        return Lookup.found(listRefunds(original));
    }

    /**
     * The replay was refused outright (a 4xx with Stripe's error object, not a 409, 429 or
     * {@code idempotency_error}): Stripe created nothing under the key, whether it refused the first send
     * and stored that, or the first never began and the replay was refused now. The row settles as the
     * first call's refusal would have settled it.
     */
    private static Lookup refused(String reference, PspRejected refusal) {
        log.info("reconcile of referenceId={}: the replay was refused with HTTP {} ({}): a confirmed refusal",
                reference, refusal.status(), refusal.errorCode());
        return Lookup.refused(refusal);
    }

    /** Only looks: the sessions around the claim (or the PaymentIntent's refunds) that carry our reference. */
    @Override
    public List<PspPayment> lookUp(CreatePayment original) {
        if (original.isRefund()) {
            return listRefunds(onPaymentIntent(original));
        }
        Fixed fixed = Fixed.fromJson(json, original.fixedRequest());
        Optional<Send> sent = sends.find(original.referenceId());
        if (fixed == null && sent.isEmpty()) {
            return List.of(); // never sent by this adapter: Stripe cannot hold it
        }
        Instant claimed = fixed != null ? fixed.claimed() : sent.get().firstSentAt();
        return listSessions(claimed, lastSend(fixed, sent), original.referenceId());
    }

    /**
     * {@code amount_to_capture} is always sent, for a full capture ({@code amount} null) too: then it is what
     * the PaymentIntent holds authorized, read first; either way in Stripe's minor units of its currency.
     */
    @Override
    public PspPayment capture(String paymentId, BigDecimal amount, String referenceId) {
        String intent = paymentIntentOf(paymentId);
        PspPayment current = get(intent).orElseThrow(() -> new PaymentOutcomeUnknown("capture of an unknown "
                + "PaymentIntent " + intent));
        BigDecimal toCapture = amount != null ? amount : current.amount();
        Map<String, String> form = new LinkedHashMap<>();
        form.put("amount_to_capture", Long.toString(StripeMoney.toMinor(toCapture, current.currency())));
        return stripe.post(CAPTURE, "/v1/payment_intents/" + intent + "/capture", StripePspClient.encode(form),
                referenceId, StripeObjects::fromPaymentIntent);
    }

    @Override
    public PspPayment voidPayment(String paymentId, String referenceId) {
        String intent = paymentIntentOf(paymentId);
        return stripe.post(VOID, "/v1/payment_intents/" + intent + "/cancel", "", referenceId,
                StripeObjects::fromPaymentIntent);
    }

    /** The stored form; built now only for an attempt claimed without one (nothing to replay it against). */
    private Fixed fixedOrNew(CreatePayment request) {
        Fixed stored = Fixed.fromJson(json, request.fixedRequest());
        if (stored != null) {
            return stored;
        }
        try {
            return StripeRequests.session(request, clock.instant(), properties.sessionLifetime(),
                    properties.captureMethod());
        } catch (StripeMoney.AmountNotSupported inexact) {
            throw new PspRejected(400, "amount_not_supported", inexact.getMessage()); // nothing was sent
        }
    }

    /** The latest send on record; the claim itself when none is (a create is recorded before it is sent). */
    private static Instant lastSend(Fixed fixed, Optional<Send> sent) {
        Instant claimed = fixed != null ? fixed.claimed() : Instant.EPOCH;
        return sent.map(Send::lastSentAt).filter(claimed::isBefore).orElse(claimed);
    }

    /** A refund whose parent is still named by its session refunds the session's PaymentIntent. */
    private CreatePayment onPaymentIntent(CreatePayment refund) {
        String parent = refund.parentPaymentId();
        if (parent == null || !parent.startsWith("cs_")) {
            return refund;
        }
        return CreatePayment.refund(refund.orderRef(), refund.amount(), refund.currency(), refund.referenceId(),
                paymentIntentOf(parent), refund.refundKey());
    }

    /** PaymentIntents, then refunds, created in the window ({@link StripeListing}). */
    @Override
    public ListingPage listCreated(Instant from, Instant to, String cursor, int pageSize) {
        return new StripeListing(stripe).page(from, to, cursor, pageSize);
    }

    /** The account also holds billing's purchases and any other integration's payments. */
    @Override
    public boolean listsOnlyOurs() {
        return false;
    }

    /** An operation on a session acts on its PaymentIntent. */
    private String paymentIntentOf(String paymentId) {
        if (!paymentId.startsWith("cs_")) {
            return paymentId;
        }
        PspPayment session = get(paymentId).orElseThrow(() -> new PaymentOutcomeUnknown("unknown session"));
        if (!session.id().startsWith("pi_")) {
            throw new PaymentOutcomeUnknown("session " + paymentId + " has no PaymentIntent yet");
        }
        return session.id();
    }

    /**
     * {@code GET /v1/checkout/sessions?created[gte]=<claim − 60 s>&created[lte]=<last send + 60 s>}, every
     * page, matching {@code client_reference_id}. A window wider than the pages we read proves nothing.
     */
    private List<PspPayment> listSessions(Instant claimed, Instant lastSend, String reference) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("created[gte]", Long.toString(claimed.minus(LISTING_SLACK).getEpochSecond()));
        query.put("created[lte]", Long.toString(lastSend.plus(LISTING_SLACK).getEpochSecond()));
        query.put("limit", Integer.toString(PAGE));
        query.put("expand[]", "data.payment_intent");
        return list(SESSIONS, query,
                session -> reference.equals(StripeObjects.depositReference(session)), StripeObjects::fromSession);
    }

    /** {@code GET /v1/refunds?payment_intent=}, every page, matching {@code metadata[referenceId]}. */
    private List<PspPayment> listRefunds(CreatePayment original) {
        if (original.parentPaymentId() == null || !original.parentPaymentId().startsWith("pi_")) {
            return List.of(); // StripeRequests.refund never sent one without its PaymentIntent
        }
        Map<String, String> query = new LinkedHashMap<>();
        query.put("payment_intent", original.parentPaymentId());
        query.put("limit", Integer.toString(PAGE));
        return list("/v1/refunds", query,
                refund -> original.referenceId().equals(StripeObjects.text(refund.path("metadata"), "referenceId")),
                StripeObjects::fromRefund);
    }

    /** One page of a listing: ours among its objects, mapped inside the call so a fault counts as its answer. */
    private record Page(List<PspPayment> ours, boolean hasMore, String lastId) {
    }

    private List<PspPayment> list(String path, Map<String, String> firstPage, Predicate<JsonNode> ours,
            Function<JsonNode, PspPayment> mapping) {
        List<PspPayment> found = new ArrayList<>();
        Map<String, String> query = new LinkedHashMap<>(firstPage);
        for (int page = 0; page < MAX_PAGES; page++) {
            Page read;
            try {
                read = stripe.get(FIND, path, query, body -> page(body, ours, mapping));
            } catch (PspRejected rejected) {
                // a refused look-up teaches nothing about the payment: still unknown
                throw new PaymentOutcomeUnknown("find " + path + " answered HTTP " + rejected.status(), rejected);
            }
            found.addAll(read.ours());
            if (!read.hasMore() || read.lastId() == null) {
                return found;
            }
            query.put("starting_after", read.lastId());
        }
        throw new PaymentOutcomeUnknown("find " + path + " has more than " + MAX_PAGES + " pages: nothing proven");
    }

    /** One object of ours that cannot be booked fails the page: a look-up must never miss the real one. */
    private static Page page(JsonNode list, Predicate<JsonNode> ours, Function<JsonNode, PspPayment> mapping) {
        JsonNode data = list.get("data");
        if (data == null || !data.isArray()) {
            throw new IllegalArgumentException("a list without a data array");
        }
        List<PspPayment> found = new ArrayList<>();
        for (JsonNode object : data.values()) {
            if (ours.test(object)) {
                found.add(mapping.apply(object));
            }
        }
        boolean hasMore = list.path("has_more").asBoolean(false);
        String lastId = data.isEmpty() ? null : StripeObjects.text(data.get(data.size() - 1), "id");
        if (hasMore && !data.isEmpty() && lastId == null) {
            throw new IllegalArgumentException("a page with more after it and no id to start the next from");
        }
        return new Page(found, hasMore, lastId);
    }
}
