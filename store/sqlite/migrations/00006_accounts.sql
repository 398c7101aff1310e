-- Accounts (issue 18): people's accounts and the bots they own, their
-- logins, and which account took each seat. Only hashes of tokens are kept:
-- a login's token and a bot's token are never stored. An account's key is
-- its name in Unicode NFC, case-folded (package account makes it), so that
-- a name is unique in any script whatever its case.

-- +goose Up
CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL,
    key            TEXT NOT NULL UNIQUE,
    password_hash  TEXT NOT NULL,
    owner_id       INTEGER NOT NULL DEFAULT 0,
    bot_token_hash TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL
) STRICT;

CREATE INDEX accounts_by_owner ON accounts (owner_id) WHERE owner_id <> 0;
CREATE UNIQUE INDEX accounts_by_bot_token ON accounts (bot_token_hash) WHERE bot_token_hash <> '';

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX sessions_by_account ON sessions (account_id);

ALTER TABLE seats ADD COLUMN account_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN bot_account INTEGER NOT NULL DEFAULT 0;

CREATE INDEX seats_by_account ON seats (account_id) WHERE account_id <> 0;

-- +goose Down
DROP INDEX seats_by_account;
ALTER TABLE seats DROP COLUMN bot_account;
ALTER TABLE seats DROP COLUMN account_id;
DROP TABLE sessions;
DROP TABLE accounts;
