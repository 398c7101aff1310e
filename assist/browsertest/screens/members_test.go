package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	"mafia/account"
	"mafia/assist/internal/hosttest"
	"mafia/store"
)

// TestTheClubScreenManagesMembersAndLinksEntries: on the club's screen (the
// club entered by its code), the host adds an account as a host, links a
// roster entry to another account and renames an entry; the store holds
// the members, the link and the name; an unknown account is refused in a
// sentence of the catalogs; the screen shows the link, then unlinks it.
func TestTheClubScreenManagesMembersAndLinksEntries(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	ctx := context.Background()
	for _, n := range []string{"Nino", "Gio"} {
		if _, err := ts.DB.CreateAccount(ctx, store.Account{Name: n, Key: account.Key(n), PasswordHash: "h", Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	cl, people := hosttest.NewClubWith(t, ts, "ნინო", "Гио")
	h := hosttest.OpenHost(t, ts, "club-members")
	h.Tap("club")
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="members-none"]')`)

	h.SetValue(`[data-t="member-name"]`, "nobody")
	h.Tap("member-add")
	h.WaitJS(5*time.Second, `!!document.querySelector('#toast.show.error')`)
	if msg := hosttest.Eval[string](h.Tab, `document.getElementById('toast').textContent`); msg == "" || strings.Contains(msg, "error.") {
		t.Errorf("an unknown account: the toast says %q", msg)
	}
	h.SetValue(`[data-t="member-name"]`, "nino")
	h.SetValue(`[data-t="member-role"]`, "host")
	h.Tap("member-add")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-member="Nino"]')`)

	gio := people[1].ID
	h.Click(`[data-t="entry-` + gio + `"] summary`)
	h.SetValue(`[data-t="link-`+gio+`"]`, "Gio")
	h.Tap("link-go-" + gio)
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="unlink-`+gio+`"]') && !!document.querySelector('[data-member="Gio"]')`)
	if s := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="entry-`+gio+`"] summary').textContent`); !strings.Contains(s, "Gio") {
		t.Errorf("the linked entry says %q; want the account's name", s)
	}
	nino := people[0].ID
	h.Click(`[data-t="entry-` + nino + `"] summary`)
	h.SetValue(`[data-t="rename-`+nino+`"]`, "ნინო კ.")
	h.Tap("rename-go-" + nino)
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="roster"] [data-person="`+nino+`"] span').textContent === 'ნინო კ.'`)
	h.Shot("club-members")
	for _, bad := range []string{"assist.", "{{", "undefined"} {
		if body := hosttest.Eval[string](h.Tab, `document.body.innerText`); strings.Contains(body, bad) {
			t.Errorf("the screen shows %q:\n%s", bad, body)
		}
	}

	ms, err := ts.DB.ClubMembers(ctx, cl.ID)
	if err != nil || len(ms) != 2 || ms[0].Role != store.ClubHost || ms[1].Role != store.ClubMember {
		t.Errorf("members: %+v, %v; want Nino a host, Gio a member (by the link)", ms, err)
	}
	ps, _ := ts.DB.People(ctx, cl.ID)
	if len(ps) != 2 || ps[0].Name != "ნინო კ." || ps[1].AccountID == nil {
		t.Errorf("the roster: %+v", ps)
	}

	h.Click(`[data-t="entry-` + gio + `"] summary`)
	h.Tap("unlink-" + gio)
	h.WaitJS(5*time.Second, `!document.querySelector('[data-t="unlink-`+gio+`"]') && !!document.querySelector('[data-t="link-go-`+gio+`"]')`)
	if ps, _ := ts.DB.People(ctx, cl.ID); ps[1].AccountID != nil {
		t.Errorf("after the unlink: %+v", ps[1])
	}
}
