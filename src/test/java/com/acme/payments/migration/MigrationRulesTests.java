package com.acme.payments.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/migrations.md: every migration is written for a live multi-instance deploy (old and new code run
 * side by side against one database while instances roll). A plain test over the migration files, so a
 * migration that breaks a rule fails the build before it reaches a database.
 */
class MigrationRulesTests {

    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.+\\.sql");

    /** The last migration written before these rules; every later one is checked. */
    private static final int LAST_GRANDFATHERED = 316;

    /**
     * Written before these rules and applied to every database since: they are not checked, and
     * they may never change (Flyway refuses a changed checksum where they ran, and an edit would not run where
     * they had). The digest pins each file; the reason says which rules it breaks and why that is let stand.
     */
    static final Map<Integer, Grandfathered> GRANDFATHERED = Map.ofEntries(
            Map.entry(1, new Grandfathered("a8e630cd5fcd99ab", "creates the first tables on an empty database")),
            Map.entry(2, new Grandfathered("03c67143fbbdba33", "creates new tables only")),
            Map.entry(3, new Grandfathered("51cf054c3de76da2",
                    "plain CREATE INDEX on orders, ALTER TABLE without lock_timeout; ran before any live deploy")),
            Map.entry(100, new Grandfathered("083f9a4bc3f45758", "creates new tables only")),
            Map.entry(200, new Grandfathered("f230793cd575b304",
                    "CHECK on an added outbox column, plain DROP/CREATE INDEX on outbox, no lock_timeout")),
            Map.entry(250, new Grandfathered("8d0cc99745812f18", "ALTER TABLE outbox without lock_timeout")),
            Map.entry(312, new Grandfathered("2710cbb35d39ef9a", "ALTER TABLE outbox_dedup without lock_timeout")),
            Map.entry(313, new Grandfathered("1520c193985f3062",
                    "an earlier finding: re-adds the inbox CHECK without NOT VALID (a scan of the largest table "
                            + "under an exclusive lock) and builds psp_refund_not_final without CONCURRENTLY; "
                            + "already applied, so left as it is, and its refunds' psp_state backfilled by V325")),
            Map.entry(314, new Grandfathered("698880d83ef6ecc4", "creates new tables only")),
            Map.entry(315, new Grandfathered("2d156cc580dfed71",
                    "plain CREATE INDEX on psp_attempt, ALTER TABLE without lock_timeout")),
            Map.entry(316, new Grandfathered("9a822650967a48b8", "plain CREATE INDEX on psp_refund_attempt")));

    /**
     * Contract steps (DROP COLUMN / DROP TABLE of something old code read), each allowed only when listed
     * here: version → the release whose code stopped reading it, which must run everywhere before this ships.
     */
    static final Map<Integer, String> CONTRACTIONS = Map.of();

    record Grandfathered(String sha256Prefix, String reason) {
    }

    @Test
    @DisplayName("every migration after V316 keeps the live-deploy rules of docs/migrations.md")
    void everyNewMigrationKeepsTheLiveDeployRules() throws IOException {
        List<String> findings = new ArrayList<>();
        for (Migration migration : migrations()) {
            if (migration.version() > LAST_GRANDFATHERED || !GRANDFATHERED.containsKey(migration.version())) {
                findings.addAll(findings(migration));
            }
        }
        assertThat(findings)
                .as("migrations that would block or break a live multi-instance deploy (docs/migrations.md; "
                        + "an applied migration is never edited: fix a new one before it ships)")
                .isEmpty();
    }

    @Test
    @DisplayName("the grandfathered migrations are exactly V1 to V316 and none of them was edited")
    void grandfatheredMigrationsAreListedAndNeverEdited() throws IOException {
        Map<Integer, String> digests = new TreeMap<>();
        for (Migration migration : migrations()) {
            if (migration.version() <= LAST_GRANDFATHERED) {
                digests.put(migration.version(), sha(migration.file()));
            }
        }
        Map<Integer, String> pinned = new TreeMap<>();
        GRANDFATHERED.forEach((version, entry) -> pinned.put(version, entry.sha256Prefix()));
        assertThat(digests).as("an applied migration is never edited, and none is added below V316").isEqualTo(pinned);
    }

    @Test
    @DisplayName("the rules catch what was found in V313")
    void theRulesCatchV313() throws IOException {
        Migration v313 = migrations().stream().filter(m -> m.version() == 313).findFirst().orElseThrow();
        List<String> findings = MigrationRules.check(v313.name(), v313.sql(), v313.nonTransactional());
        assertThat(findings).anySatisfy(f -> assertThat(f).contains("psp_webhook_event_processed_reason_check")
                .contains("[not-valid]"));
        assertThat(findings).anySatisfy(f -> assertThat(f).contains("CREATE INDEX psp_refund_not_final")
                .contains("[concurrent-index]"));
    }

    @Test
    void everyScriptConfigBelongsToAMigrationAndOnlyTurnsTheTransactionOff() throws IOException {
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            for (Path conf : files.filter(f -> f.getFileName().toString().endsWith(".conf")).toList()) {
                String name = conf.getFileName().toString();
                assertThat(MIGRATIONS.resolve(name.substring(0, name.length() - ".conf".length()))).as(name).exists();
                assertThat(Files.readString(conf).strip()).as(name).isEqualTo("executeInTransaction=false");
            }
        }
    }

    @ParameterizedTest(name = "[{0}] {1}")
    @CsvSource(delimiter = '|', textBlock = """
            not-valid          | ALTER TABLE orders ADD CONSTRAINT c CHECK (amount > 0);
            not-valid          | ALTER TABLE orders ADD CONSTRAINT f FOREIGN KEY (shop_id) REFERENCES shop (id);
            not-valid          | ALTER TABLE orders ADD COLUMN kind text CHECK (kind IN ('a'));
            not-valid          | ALTER TABLE orders ADD COLUMN shop_id bigint REFERENCES shop (id);
            not-valid          | ALTER TABLE orders ALTER COLUMN kind SET NOT NULL;
            not-valid          | ALTER TABLE orders ADD CONSTRAINT c CHECK (a > 0) NOT VALID; ALTER TABLE orders VALIDATE CONSTRAINT c;
            concurrent-index   | CREATE INDEX o_kind ON orders (kind);
            concurrent-index   | CREATE UNIQUE INDEX o_kind ON orders (kind) WHERE kind IS NOT NULL;
            concurrent-index   | DROP INDEX o_kind;
            concurrent-index   | ALTER TABLE orders ADD CONSTRAINT u UNIQUE (kind);
            concurrent-index   | CREATE INDEX CONCURRENTLY o_kind ON orders (kind);
            expand-contract    | ALTER TABLE orders DROP COLUMN kind;
            expand-contract    | ALTER TABLE orders RENAME COLUMN kind TO sort;
            expand-contract    | ALTER TABLE orders RENAME TO purchase;
            expand-contract    | DROP TABLE orders;
            no-rewrite         | ALTER TABLE orders ALTER COLUMN amount TYPE numeric(12,2);
            no-rewrite         | ALTER TABLE orders ADD COLUMN token uuid DEFAULT gen_random_uuid();
            batched-backfill   | UPDATE orders SET kind = 'a' WHERE kind IS NULL;
            batched-backfill   | DELETE FROM outbox WHERE state = 'delivered';
            batched-backfill   | INSERT INTO archive SELECT * FROM orders;
            batched-backfill   | DO $$ BEGIN UPDATE orders SET kind = 'a'; END $$;
            lock-timeout       | ALTER TABLE orders ADD COLUMN kind text;
            session-settings   | SET lock_timeout = '5s'; ALTER TABLE orders ADD COLUMN kind text;
            """)
    void aMigrationBreakingARuleIsNamedWithThatRule(String rule, String sql) {
        assertThat(MigrationRules.check("V999__example.sql", sql, false)).as(sql)
                .anySatisfy(f -> assertThat(f).contains("[" + rule + "]"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            SET LOCAL lock_timeout = '5s'; ALTER TABLE orders ADD COLUMN kind text;
            SET LOCAL lock_timeout = '5s'; ALTER TABLE orders ADD CONSTRAINT c CHECK (amount > 0) NOT VALID;
            SET LOCAL lock_timeout = '5s'; ALTER TABLE orders ADD CONSTRAINT f FOREIGN KEY (s) REFERENCES shop (id) NOT VALID;
            SET LOCAL lock_timeout = '5s'; ALTER TABLE orders ADD CONSTRAINT u UNIQUE USING INDEX o_kind;
            CREATE TABLE shop (id bigint PRIMARY KEY, k text CHECK (k <> '')); CREATE INDEX shop_k ON shop (k); INSERT INTO shop SELECT 1, 'a';
            CREATE TABLE shop (id bigint); ALTER TABLE shop ADD CONSTRAINT k CHECK (id > 0); UPDATE shop SET id = 1;
            -- CREATE INDEX o ON orders (k); a comment is not a statement
            INSERT INTO settings (k, v) VALUES ('a', 'b; CREATE INDEX x ON orders (k)');
            """)
    void aMigrationKeepingTheRulesHasNoFindings(String sql) {
        assertThat(MigrationRules.check("V999__example.sql", sql, false)).as(sql).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            CREATE INDEX CONCURRENTLY o_kind ON orders (kind);
            DROP INDEX CONCURRENTLY o_kind;
            ALTER TABLE orders VALIDATE CONSTRAINT c;
            DO $$ BEGIN LOOP UPDATE orders SET k = 1 WHERE id IN (SELECT id FROM orders LIMIT 100); COMMIT; END LOOP; END $$;
            """)
    void aNonTransactionalMigrationHoldingOnlyWhatMayRunWithoutATransactionHasNoFindings(String sql) {
        assertThat(MigrationRules.check("V999__example.sql", sql, true)).as(sql).isEmpty();
    }

    @Test
    void aConcurrentIndexStandsAloneAndANonTransactionalMigrationHoldsNothingElse() {
        assertThat(MigrationRules.check("V999__example.sql",
                "CREATE INDEX CONCURRENTLY a ON orders (k); CREATE INDEX CONCURRENTLY b ON orders (j);", true))
                .anySatisfy(f -> assertThat(f).contains("[concurrent-index]").contains("stands alone"));
        assertThat(MigrationRules.check("V999__example.sql", "ALTER TABLE orders ADD COLUMN k text;", true))
                .anySatisfy(f -> assertThat(f).contains("[non-transactional]"));
    }

    private static List<String> findings(Migration migration) {
        List<String> findings = new ArrayList<>(
                MigrationRules.check(migration.name(), migration.sql(), migration.nonTransactional()));
        if (CONTRACTIONS.containsKey(migration.version())) {
            findings.removeIf(f -> f.contains("[expand-contract] DROP"));
        }
        return findings;
    }

    record Migration(int version, Path file, String name, String sql, boolean nonTransactional) {
    }

    static List<Migration> migrations() throws IOException {
        List<Migration> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            for (Path file : files.sorted().toList()) {
                Matcher name = VERSIONED.matcher(file.getFileName().toString());
                if (!name.matches()) {
                    continue;
                }
                Path conf = file.resolveSibling(file.getFileName() + ".conf");
                boolean nonTransactional = Files.exists(conf)
                        && Files.readString(conf).lines().map(String::trim)
                                .anyMatch(l -> l.replace(" ", "").equalsIgnoreCase("executeInTransaction=false"));
                found.add(new Migration(Integer.parseInt(name.group(1)), file, file.getFileName().toString(),
                        Files.readString(file, StandardCharsets.UTF_8), nonTransactional));
            }
        }
        found.sort(java.util.Comparator.comparingInt(Migration::version));
        return found;
    }

    static String sha(Path file) throws IOException {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return HexFormat.of().formatHex(digest).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
