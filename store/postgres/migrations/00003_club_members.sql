-- The clubs' members (store.ClubMembers) on PostgreSQL, the shape of
-- store/sqlite's 00009: which accounts belong to a club, each with a role
-- (owner, host or member), and the rule that an account is linked to at
-- most one roster entry per club (club_people.account_id, the account's id
-- in decimal, NULL for none; 00002 made the column). A member goes with
-- their account. Readable with psql, e.g.
-- SELECT a.name, m.role FROM club_members m JOIN accounts a ON a.id = m.account_id WHERE m.club_id = '...';

-- +goose Up
CREATE TABLE club_members (
    club_id    text COLLATE "C" NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('owner', 'host', 'member')),
    added_ns   bigint NOT NULL,
    PRIMARY KEY (club_id, account_id)
);

CREATE INDEX club_members_by_account ON club_members (account_id);

CREATE UNIQUE INDEX club_people_by_account ON club_people (club_id, account_id) WHERE account_id IS NOT NULL;
CREATE INDEX club_people_linked ON club_people (account_id) WHERE account_id IS NOT NULL;

-- +goose Down
DROP INDEX club_people_linked;
DROP INDEX club_people_by_account;
DROP INDEX club_members_by_account;
DROP TABLE club_members;
