package bench

// This file connects a seat to its table's owner: the node of a cluster
// that runs the table, named with its URL in the table's row
// (wire.Lobby.Owner), so that the seat's frames skip the relay.

import (
	"context"
	"strings"
	"sync"
	"time"

	"mafia/client"
	"mafia/wire"
)

// ownerDialWait bounds a dial to a table's owner before the seat falls back
// to the server it was given (an owner URL that answers nothing).
const ownerDialWait = 5 * time.Second

// ownerRoute is where a game's seats connect when they follow its owner:
// one of the run's servers (srv), or, for an owner URL that is none of
// them, an API made for it (srv -1; its seats count in the figures of the
// server the spread gave them).
type ownerRoute struct {
	srv int
	api *client.API
}

// owners holds the APIs made for owner URLs that are none of the run's
// servers, one per URL.
type owners struct {
	mu   sync.Mutex
	apis map[string]*client.API
}

// routeTo is the route to a table's owner, nil when the seats do not
// follow it: the run ignores owners (Config.IgnoreOwner), or the table's
// row names no owner URL.
func (r *run) routeTo(o *wire.TableOwner) *ownerRoute {
	if r.cfg.IgnoreOwner || o == nil || o.URL == "" {
		return nil
	}
	u := strings.TrimRight(o.URL, "/")
	for i, sv := range r.srvs {
		if sv.url == u {
			return &ownerRoute{srv: i, api: sv.api}
		}
	}
	r.owners.mu.Lock()
	defer r.owners.mu.Unlock()
	if r.owners.apis == nil {
		r.owners.apis = map[string]*client.API{}
	}
	a := r.owners.apis[u]
	if a == nil {
		a = &client.API{Base: u, HTTP: r.cfg.HTTP}
		r.owners.apis[u] = a
	}
	return &ownerRoute{srv: -1, api: a}
}

// dialOwner opens a seat's WebSocket at its table's owner. It returns the
// connection and the server (an index into r.srvs) whose figures the seat
// counts in: the owner's, or given's for an owner that is none of the
// run's servers. A refusal or an owner that cannot be reached returns the
// error: the caller dials through the given server instead (the relay).
func (r *run) dialOwner(ctx context.Context, o *ownerRoute, given int, table, token string) (*client.Conn, int, error) {
	dctx, cancel := context.WithTimeout(ctx, ownerDialWait)
	defer cancel()
	c, err := o.api.Dial(dctx, table, token, 0)
	if err != nil {
		return nil, given, err
	}
	if o.srv >= 0 {
		return c, o.srv, nil
	}
	return c, given, nil
}
