package com.acme.payments.access;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;

import com.acme.payments.common.web.KeysUnverifiable;
import com.acme.payments.sweep.Schedules;

/**
 * This instance's copy of the issued keys not revoked, by the SHA-256 of the key: every request is checked
 * against memory, never the database. Instances share only PostgreSQL, so each re-reads the table every
 * {@code payments.access.refresh} (1s): a key revoked anywhere is refused everywhere within that and one read.
 * The instance that issues or revokes a key updates its copy at once. A copy older than
 * {@code payments.access.max-staleness} (the database unreachable) vouches for no issued key: a revocation it
 * cannot see must not let a key in, and a valid key must not be told it is unknown, so such a request is a 503. Staleness is measured on the monotonic clock: it is not business time.
 */
@Component
class IssuedKeys implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(IssuedKeys.class);

    private final ApiKeyStore store;
    private final Duration refresh;
    private final long maxStalenessNanos;
    private volatile Copy copy;
    private volatile long lastAttempt;

    IssuedKeys(ApiKeyStore store, AccessProperties properties) {
        this.store = store;
        this.refresh = properties.refresh();
        this.maxStalenessNanos = properties.maxStaleness().toNanos();
        // nothing read yet: too old to trust, so the first request reads the table rather than wait for the job
        long never = System.nanoTime() - maxStalenessNanos - refresh.toNanos() - 1;
        this.copy = new Copy(Map.of(), never);
        this.lastAttempt = never;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.fixedDelay(registrar, refresh, refresh, this, "refresh");
    }

    /**
     * The key not revoked whose hash this is; empty for none.
     *
     * @throws KeysUnverifiable while this copy is too old to trust and the table cannot be read
     */
    Optional<ApiKeyStore.ActiveKey> find(byte[] keyHash) {
        Copy current = fresh();
        if (current == null) {
            throw new KeysUnverifiable();
        }
        return Optional.ofNullable(current.byHash.get(ByteBuffer.wrap(keyHash)));
    }

    /** Re-reads the keys not revoked (scheduled; also on a request that finds the copy too old). */
    void refresh() {
        lastAttempt = System.nanoTime();
        long started = System.nanoTime();
        List<ApiKeyStore.ActiveKey> active = store.active();
        Map<ByteBuffer, ApiKeyStore.ActiveKey> byHash = new HashMap<>();
        active.forEach(key -> byHash.put(ByteBuffer.wrap(key.keyHash()), key));
        replace(byHash, started);
    }

    /** A key this instance just issued: usable here at once. */
    synchronized void issued(ApiKeyStore.ActiveKey key) {
        Map<ByteBuffer, ApiKeyStore.ActiveKey> byHash = new HashMap<>(copy.byHash);
        byHash.put(ByteBuffer.wrap(key.keyHash()), key);
        copy = new Copy(Map.copyOf(byHash), System.nanoTime());
    }

    /** A key this instance just revoked: refused here at once. */
    synchronized void revoked(long id) {
        Map<ByteBuffer, ApiKeyStore.ActiveKey> byHash = new HashMap<>(copy.byHash);
        byHash.values().removeIf(key -> key.id() == id);
        copy = new Copy(Map.copyOf(byHash), System.nanoTime());
    }

    /**
     * Keeps a read unless the copy changed after it started: a read that began before an {@link #issued} or
     * {@link #revoked} here may miss that change, so it is dropped (those two stamp the copy with their time).
     */
    private synchronized void replace(Map<ByteBuffer, ApiKeyStore.ActiveKey> byHash, long readAt) {
        if (readAt >= copy.readAt) {
            copy = new Copy(Map.copyOf(byHash), readAt);
        }
    }

    private Copy fresh() {
        Copy current = copy;
        if (System.nanoTime() - current.readAt <= maxStalenessNanos) {
            return current;
        }
        synchronized (this) {
            if (System.nanoTime() - copy.readAt <= maxStalenessNanos) {
                return copy;
            }
            if (System.nanoTime() - lastAttempt < refresh.toNanos()) {
                return null; // one request tries per period; the others do not queue behind the database
            }
            try {
                refresh();
                return copy;
            } catch (DataAccessException | TransactionException e) {
                // a connection the pool cannot give fails the transaction's start: a TransactionException
                log.warn("issued keys not re-read, unverifiable until they are: {}", e.getClass().getSimpleName());
                return null;
            }
        }
    }

    private record Copy(Map<ByteBuffer, ApiKeyStore.ActiveKey> byHash, long readAt) {
    }
}
