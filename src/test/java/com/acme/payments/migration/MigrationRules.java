package com.acme.payments.migration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live-deploy rules of docs/migrations.md, read off one Flyway SQL migration: what can be checked from
 * the text alone. Each finding names its rule (the heading in docs/migrations.md) and the way to fix it.
 * "Existing table" means one this file does not create: a table created in the same file is empty, so
 * plain indexes and constraints on it cost nothing.
 */
final class MigrationRules {

    private static final Pattern CREATE_TABLE = Pattern.compile("^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?(\\S+)");
    private static final Pattern ALTER_TABLE = Pattern.compile("^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(\\S+) (.*)$");
    private static final Pattern CREATE_INDEX = Pattern.compile(
            "^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?(?:\\S+ )?ON (?:ONLY )?([^\\s(]+)");
    private static final Pattern DROP_INDEX = Pattern.compile("^DROP INDEX (CONCURRENTLY )?");
    private static final Pattern DROP_TABLE = Pattern.compile("^DROP TABLE (?:IF EXISTS )?(\\S+)");
    private static final Pattern DML = Pattern.compile("^(?:WITH .*?\\) )?(UPDATE (?:ONLY )?(\\S+)|DELETE FROM (?:ONLY )?(\\S+)"
            + "|INSERT INTO (\\S+) .*\\bSELECT\\b)");
    private static final Pattern DO_BLOCK = Pattern.compile("^DO\\b");
    private static final Pattern DO_WRITES = Pattern.compile("\\b(UPDATE|DELETE FROM|INSERT INTO)\\b");
    private static final Pattern SET_SESSION = Pattern.compile("^SET (?!LOCAL )");
    private static final Pattern LOCK_TIMEOUT = Pattern.compile("^SET LOCAL LOCK_TIMEOUT\\b");
    private static final Pattern NOT_VALID_ADD = Pattern.compile("ADD CONSTRAINT (\\S+) .*\\bNOT VALID\\b");
    private static final Pattern VALIDATE = Pattern.compile("\\bVALIDATE CONSTRAINT (\\S+)");
    private static final Pattern VOLATILE_DEFAULT = Pattern.compile(
            "\\bDEFAULT (?:CLOCK_TIMESTAMP|RANDOM|GEN_RANDOM_UUID|UUID_GENERATE_V\\d|TIMEOFDAY|NEXTVAL)\\b");

    private MigrationRules() {
    }

    /** The findings for one migration; empty when it keeps every rule. */
    static List<String> check(String fileName, String sql, boolean nonTransactional) {
        List<String> statements = Sql.statements(sql);
        Set<String> created = new HashSet<>();
        for (String statement : statements) {
            Matcher table = CREATE_TABLE.matcher(upper(statement));
            if (table.find()) {
                created.add(name(table.group(1)));
            }
        }
        List<String> findings = new ArrayList<>();
        Set<String> addedNotValid = new HashSet<>();
        boolean lockTimeoutSet = false;
        boolean lockTimeoutReported = false;
        for (String statement : statements) {
            String s = upper(statement);
            String where = fileName + ": " + abbreviate(statement) + "\n      -> ";
            if (LOCK_TIMEOUT.matcher(s).find()) {
                lockTimeoutSet = true;
                continue;
            }
            if (SET_SESSION.matcher(s).find()) {
                findings.add(where + "[session-settings] a plain SET outlives the migration on the application's pooled "
                        + "connection; use SET LOCAL in a transactional migration");
                continue;
            }
            if (s.contains(" CONCURRENTLY ")) {
                if (!nonTransactional) {
                    findings.add(where + "[concurrent-index] CONCURRENTLY cannot run in a transaction: add "
                            + fileName + ".conf with executeInTransaction=false");
                }
                if (statements.size() > 1) {
                    findings.add(where + "[concurrent-index] a CONCURRENTLY statement stands alone in its migration "
                            + "(a failure leaves it half done; alone, the fix is to drop the INVALID index and rerun)");
                }
            }
            Matcher index = CREATE_INDEX.matcher(s);
            if (index.find() && index.group(1) == null && !created.contains(name(index.group(2)))) {
                findings.add(where + "[concurrent-index] CREATE INDEX on the existing table " + name(index.group(2))
                        + " blocks its writes for the whole build: CREATE INDEX CONCURRENTLY, alone in a migration "
                        + "with a .sql.conf executeInTransaction=false");
            }
            Matcher dropIndex = DROP_INDEX.matcher(s);
            if (dropIndex.find() && dropIndex.group(1) == null) {
                findings.add(where + "[concurrent-index] DROP INDEX takes an exclusive lock on its table: DROP INDEX "
                        + "CONCURRENTLY, alone in a non-transactional migration");
            }
            Matcher dropTable = DROP_TABLE.matcher(s);
            if (dropTable.find() && !created.contains(name(dropTable.group(1)))) {
                findings.add(where + "[expand-contract] DROP TABLE " + name(dropTable.group(1)) + ": the running old "
                        + "code may still read it; contract only in a later release, listed in "
                        + "MigrationRulesTests.CONTRACTIONS with the release that stopped reading it");
            }
            Matcher alter = ALTER_TABLE.matcher(s);
            if (alter.find()) {
                String table = name(alter.group(1));
                boolean existing = !created.contains(table);
                for (String action : Sql.topLevelCommaSplit(alter.group(2))) {
                    findings.addAll(alterAction(where, table, existing, action.trim(), nonTransactional));
                }
                Matcher notValid = NOT_VALID_ADD.matcher(s);
                if (notValid.find()) {
                    addedNotValid.add(name(notValid.group(1)));
                }
                if (existing && !nonTransactional && !lockTimeoutSet && !lockTimeoutReported) {
                    lockTimeoutReported = true;
                    findings.add(where + "[lock-timeout] ALTER TABLE " + table + " waits for its exclusive lock behind "
                            + "any long transaction while every new query queues behind it: start the migration with "
                            + "SET LOCAL lock_timeout = '5s'");
                }
            }
            Matcher validate = VALIDATE.matcher(s);
            if (validate.find() && !nonTransactional && addedNotValid.contains(name(validate.group(1)))) {
                findings.add(where + "[not-valid] VALIDATE CONSTRAINT in the transaction that added it NOT VALID scans "
                        + "under that exclusive lock: validate in a later migration");
            }
            Matcher dml = DML.matcher(s);
            if (dml.find()) {
                String target = name(firstNonNull(dml.group(2), dml.group(3), dml.group(4)));
                if (!created.contains(target)) {
                    findings.add(where + "[batched-backfill] a single UPDATE/DELETE/INSERT…SELECT over the existing "
                            + "table " + target + " locks every row it touches in one long transaction: backfill in "
                            + "batches (a DO block that loops over id ranges with COMMIT after each, in a migration "
                            + "with executeInTransaction=false), or in a job");
                }
            }
            if (DO_BLOCK.matcher(s).find() && DO_WRITES.matcher(s).find()
                    && (!nonTransactional || !s.contains("COMMIT"))) {
                findings.add(where + "[batched-backfill] a DO block that writes rows commits per batch (COMMIT inside "
                        + "its loop), which PostgreSQL allows only outside a transaction: executeInTransaction=false");
            }
            if (nonTransactional && !s.contains(" CONCURRENTLY ") && !DO_BLOCK.matcher(s).find()
                    && !s.matches("^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?\\S+ VALIDATE CONSTRAINT \\S+$")) {
                findings.add(where + "[non-transactional] without a transaction a failure leaves this half applied: a "
                        + "non-transactional migration holds only CONCURRENTLY, VALIDATE CONSTRAINT and batched DO "
                        + "blocks; put the rest in a transactional migration");
            }
        }
        return findings;
    }

    private static List<String> alterAction(String where, String table, boolean existing, String action,
            boolean nonTransactional) {
        List<String> findings = new ArrayList<>();
        if (action.startsWith("RENAME") && !action.startsWith("RENAME CONSTRAINT")) {
            findings.add(where + "[expand-contract] RENAME on " + table + ": the running old code still uses the old "
                    + "name; add the new column, write both, switch reads, drop the old one in a later release");
        }
        if (!existing) {
            return findings;
        }
        boolean addConstraint = action.matches("^ADD (CONSTRAINT \\S+ )?(CHECK|FOREIGN KEY|UNIQUE|PRIMARY KEY|EXCLUDE)\\b.*");
        if (addConstraint) {
            if (action.matches(".*\\b(CHECK|FOREIGN KEY)\\b.*") && !action.contains("NOT VALID")) {
                findings.add(where + "[not-valid] a CHECK or FOREIGN KEY added to the existing table " + table
                        + " scans it under an exclusive lock: ADD … NOT VALID here, VALIDATE CONSTRAINT in a later "
                        + "migration");
            }
            if (action.matches(".*\\b(UNIQUE|PRIMARY KEY)\\b.*") && !action.contains("USING INDEX")) {
                findings.add(where + "[concurrent-index] a UNIQUE or PRIMARY KEY constraint builds its index under "
                        + "an exclusive lock: CREATE UNIQUE INDEX CONCURRENTLY first, then ADD … USING INDEX");
            }
        } else if (action.startsWith("ADD")) {
            if (action.matches(".*(\\bREFERENCES\\b|\\bCHECK ?\\(|\\bPRIMARY KEY\\b|\\bUNIQUE\\b).*")) {
                findings.add(where + "[not-valid] a constraint on a column added to the existing table " + table
                        + " is checked by a scan under the exclusive lock: add the bare column, then ADD CONSTRAINT … "
                        + "NOT VALID and VALIDATE CONSTRAINT later");
            }
            if (VOLATILE_DEFAULT.matcher(action).find()) {
                findings.add(where + "[no-rewrite] a volatile DEFAULT rewrites " + table + " under an exclusive lock: "
                        + "add the column without it and backfill in batches");
            }
        } else if (action.startsWith("DROP COLUMN") || action.startsWith("DROP ") && !action.startsWith("DROP CONSTRAINT")
                && !action.startsWith("DROP DEFAULT") && !action.startsWith("DROP NOT NULL")) {
            findings.add(where + "[expand-contract] DROP COLUMN on " + table + ": the running old code may still read "
                    + "it; contract only in a later release, listed in MigrationRulesTests.CONTRACTIONS with the release "
                    + "that stopped reading it");
        } else if (action.matches("^ALTER (COLUMN )?\\S+ (SET DATA )?TYPE .*")) {
            findings.add(where + "[no-rewrite] a column TYPE change rewrites " + table + " under an exclusive lock and "
                    + "breaks old code: add a new column, backfill in batches, switch, drop the old later");
        } else if (action.matches("^ALTER (COLUMN )?\\S+ SET NOT NULL.*")) {
            findings.add(where + "[not-valid] SET NOT NULL scans " + table + " under an exclusive lock: ADD CONSTRAINT "
                    + "… CHECK (col IS NOT NULL) NOT VALID, VALIDATE it later, then SET NOT NULL uses it");
        }
        return findings;
    }

    private static String upper(String statement) {
        return statement.replaceAll("\\s+", " ").trim().toUpperCase(Locale.ROOT);
    }

    private static String name(String raw) {
        String bare = raw.replace("\"", "").toLowerCase(Locale.ROOT);
        return bare.substring(bare.lastIndexOf('.') + 1);
    }

    private static String firstNonNull(String... values) {
        for (String value : values) {
            if (value != null) {
                return value;
            }
        }
        throw new IllegalStateException("no table in the statement");
    }

    private static String abbreviate(String statement) {
        String flat = statement.replaceAll("\\s+", " ").trim();
        return flat.length() <= 110 ? flat : flat.substring(0, 107) + "...";
    }
}
