-- A tournament's referee account beside its JSON (store.Tournament's
-- RefereeAccount), so that an account finds the tournaments it referees in
-- clubs it is no member of (store.Tournaments' RefereeTournaments). Rows
-- made before it take the account from their JSON.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN referee_account INTEGER NOT NULL DEFAULT 0;
UPDATE tournaments SET referee_account = COALESCE(json_extract(CAST(data AS TEXT), '$.referee_account'), 0)
    WHERE json_valid(CAST(data AS TEXT));
CREATE INDEX tournaments_by_referee ON tournaments (referee_account, created_at) WHERE referee_account <> 0;

-- +goose Down
DROP INDEX tournaments_by_referee;
ALTER TABLE tournaments DROP COLUMN referee_account;
