package bench

import (
	"testing"

	"mafia/client"
	"mafia/wire"
)

// TestRouteTo_TheOwnersURLPicksItsServerOrAnAPIOfItsOwn pins where a seat
// that follows its table's owner connects: the run's server whose URL the
// owner names (a trailing slash aside), an API made once for an owner URL
// that is none of them, and nowhere new without an owner URL or when the
// run ignores owners.
func TestRouteTo_TheOwnersURLPicksItsServerOrAnAPIOfItsOwn(t *testing.T) {
	r := &run{}
	for _, u := range []string{"http://127.0.0.1:1", "http://127.0.0.1:2"} {
		r.srvs = append(r.srvs, &serverRun{url: u, api: &client.API{Base: u}})
	}
	if o := r.routeTo(&wire.TableOwner{Node: "n2", URL: "http://127.0.0.1:2/"}); o == nil || o.srv != 1 || o.api != r.srvs[1].api {
		t.Errorf("an owner among the servers: %+v, want the second server", o)
	}
	a := r.routeTo(&wire.TableOwner{Node: "n3", URL: "http://127.0.0.1:3"})
	if a == nil || a.srv != -1 || a.api.Base != "http://127.0.0.1:3" {
		t.Fatalf("an owner outside the servers: %+v, want an API of its own", a)
	}
	if b := r.routeTo(&wire.TableOwner{Node: "n3", URL: "http://127.0.0.1:3/"}); b == nil || b.api != a.api {
		t.Errorf("the same owner again: %+v, want the API made before", b)
	}
	for name, o := range map[string]*wire.TableOwner{"no owner": nil, "no URL": {Node: "n1"}} {
		if got := r.routeTo(o); got != nil {
			t.Errorf("%s: %+v, want nil", name, got)
		}
	}
	r.cfg.IgnoreOwner = true
	if got := r.routeTo(&wire.TableOwner{Node: "n2", URL: "http://127.0.0.1:2"}); got != nil {
		t.Errorf("ignoring owners: %+v, want nil", got)
	}
}
