-- Keys issued at run time (POST /api/admin/keys): only the SHA-256 of the key is kept, never the key. A new
-- table the running old code never reads: expand only. Rules: docs/migrations.md.
CREATE TABLE api_key (
    id           bigserial   PRIMARY KEY,
    name         text        NOT NULL CHECK (name <> '' AND length(name) <= 100),
    scopes       text[]      NOT NULL CHECK (cardinality(scopes) > 0),
    key_hash     bytea       NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    created_by   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- moved forward in batches from each instance's memory, never per request
    last_used_at timestamptz,
    revoked_by   text,
    revoked_at   timestamptz,
    CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
