-- The migrations applied so far (sql/migrations/NNN_name.sql, by file stem).
CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
)
