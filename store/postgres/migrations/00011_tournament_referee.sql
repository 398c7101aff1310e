-- A tournament's referee account beside its JSON, as store/sqlite's
-- migration 00016: an account finds the tournaments it referees in clubs it
-- is no member of (store.Tournaments' RefereeTournaments). Rows made before
-- it take the account from their JSON.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN referee_account bigint NOT NULL DEFAULT 0;
-- +goose StatementBegin
DO $$
BEGIN
    UPDATE tournaments SET referee_account = (convert_from(data, 'UTF8')::jsonb ->> 'referee_account')::bigint
        WHERE convert_from(data, 'UTF8')::jsonb ? 'referee_account';
EXCEPTION WHEN others THEN
    -- a row whose JSON does not parse keeps 0: the next update writes it
    NULL;
END
$$;
-- +goose StatementEnd
CREATE INDEX tournaments_by_referee ON tournaments (referee_account, created_ns) WHERE referee_account <> 0;

-- +goose Down
DROP INDEX tournaments_by_referee;
ALTER TABLE tournaments DROP COLUMN referee_account;
