-- The client addresses each account's logins took seats from lately
-- (store.SeenAddrs), for the seat limits of every node and of a node after
-- its restart: a few per account, none kept past its time.

-- +goose Up
CREATE TABLE seen_addrs (
    account_id bigint NOT NULL,
    addr       text COLLATE "C" NOT NULL,
    at_ns      bigint NOT NULL,
    PRIMARY KEY (account_id, addr)
);

CREATE INDEX seen_addrs_by_time ON seen_addrs (at_ns);

-- +goose Down
DROP TABLE seen_addrs;
