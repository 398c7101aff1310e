package cluster

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	"github.com/nats-io/nats.go"

	"mafia/wire"
)

// LobbySource is a node's own lobby: the rows its GET /api/tables lists
// (the server satisfies it).
type LobbySource interface {
	// Tables lists the node's public tables not yet ended.
	Tables(ctx context.Context) ([]wire.Lobby, error)
}

// Row is one table of the cluster's lobby and the node that holds it.
type Row struct {
	Node  string     `json:"node"`
	Table wire.Lobby `json:"table"`
}

// Gathered is the lobby of every node that answered in time.
type Gathered struct {
	Rows []Row `json:"rows"`
	// Missing are the live nodes that did not answer within the bound,
	// by id; their tables are left out.
	Missing []string `json:"missing,omitempty"`
}

// lobbyReply is a node's answer to SubjectLobby.
type lobbyReply struct {
	Node   string       `json:"node"`
	Tables []wire.Lobby `json:"tables"`
}

// answerLobby answers a lister with this node's rows.
func (n *Node) answerLobby(m *nats.Msg) {
	if _, ok := n.unseal(m); !ok || m.Reply == "" {
		return
	}
	// The NATS callback must not block the node's other subscriptions
	// for long: the source is read within the lister's own bound.
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.LobbyWait)
		defer cancel()
		rows, err := n.ownLobby(ctx)
		if err != nil {
			return // a lister counts this node missing
		}
		data, _ := json.Marshal(lobbyReply{Node: n.cfg.ID, Tables: rows})
		_ = n.respond(m, data)
	}()
}

// ownLobby is this node's own lobby rows.
func (n *Node) ownLobby(ctx context.Context) ([]wire.Lobby, error) {
	if n.cfg.Lobby == nil {
		return nil, nil
	}
	return n.cfg.Lobby.Tables(ctx)
}

// LobbyMissed counts the nodes left out of a gathered lobby because they
// did not answer in time, over the node's life.
func (n *Node) LobbyMissed() int64 { return n.lobbyMiss.Load() }

// Lobby gathers the lobby rows of every live node, this one's included,
// each row naming its node. It waits for the other live nodes at most
// LobbyWait (or until ctx ends): a node that has not answered by then is
// left out and listed in Missing. Rows come by node id, each node's in its
// own order.
func (n *Node) Lobby(ctx context.Context) (Gathered, error) {
	var g Gathered
	want := map[string]bool{}
	for _, info := range n.Nodes() {
		if info.ID != n.cfg.ID {
			want[info.ID] = true
		}
	}
	got := map[string][]wire.Lobby{}
	if len(want) > 0 {
		inbox := n.nc.NewRespInbox()
		replies := make(chan *nats.Msg, len(want)+8)
		sub, err := n.nc.ChanSubscribe(inbox, replies)
		if err != nil {
			return g, err
		}
		defer sub.Unsubscribe()
		if err := n.nc.PublishRequest(SubjectLobby, inbox, n.keys.seal(SubjectLobby, nil)); err != nil {
			return g, err
		}
		t := time.NewTimer(n.cfg.LobbyWait)
		defer t.Stop()
	wait:
		for len(want) > 0 {
			select {
			case m := <-replies:
				var r lobbyReply
				d, ok := n.unseal(m)
				if !ok || json.Unmarshal(d, &r) != nil || !want[r.Node] {
					continue
				}
				delete(want, r.Node)
				got[r.Node] = r.Tables
			case <-t.C:
				break wait
			case <-ctx.Done():
				break wait
			}
		}
	}
	own, err := n.ownLobby(ctx)
	if err != nil {
		return g, err
	}
	got[n.cfg.ID] = own
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		for _, l := range got[id] {
			g.Rows = append(g.Rows, Row{Node: id, Table: l})
		}
	}
	for id := range want {
		g.Missing = append(g.Missing, id)
	}
	sort.Strings(g.Missing)
	n.lobbyMiss.Add(int64(len(g.Missing)))
	return g, nil
}
