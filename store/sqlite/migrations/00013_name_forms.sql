-- The forms each account's name is read in (store.NameForms): its key, and
-- the shape of its letters as written (package internal/namekey), so that
-- a look-alike is found whichever way two names read alike. Accounts made
-- before this migration get theirs from package account when it first
-- checks a new name.

-- +goose Up
CREATE TABLE name_forms (
    form       TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (form, account_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX name_forms_by_account ON name_forms (account_id);

-- +goose Down
DROP TABLE name_forms;
