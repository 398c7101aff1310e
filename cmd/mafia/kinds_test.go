package main

import (
	"testing"

	"mafia/account"
	"mafia/assist"
	"mafia/assist/record"
	"mafia/bot"
	"mafia/club"
	"mafia/cluster"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/room"
	"mafia/server"
)

// TestKinds_EveryCodeTheServerAnswersWithHasAKind: every code declared in
// the engine, the room, the server, the guard, the HTTP layer and the
// cluster's relay has a kind in the server's vocabulary, and so one HTTP
// status by one table (httpapi.StatusOf); a new code without a kind fails
// here.
func TestKinds_EveryCodeTheServerAnswersWithHasAKind(t *testing.T) {
	v := httpapi.NewVocabulary(engine.Kinds, room.Kinds, bot.Kinds, httpguard.Kinds, httpapi.Kinds, server.Kinds, account.Kinds,
		cluster.Kinds)
	codes := codesIn(t, "../../engine", "../../room", "../../bot", "../../server", "../../internal/httpguard", "../../internal/httpapi",
		"../../account", "../../cluster")
	if len(codes) < 60 {
		t.Fatalf("found only %d codes; the scan is broken", len(codes))
	}
	for _, c := range codes {
		if v.Kind(engine.Code(c)) == engine.KindNone {
			t.Errorf("code %q has no kind: add it to its package's Kinds", c)
		}
	}
}

// TestKinds_EveryCodeTheAssistantAnswersWithHasAKind: the same for the
// host's assistant, its record, the club and the layers it shares with the
// server.
func TestKinds_EveryCodeTheAssistantAnswersWithHasAKind(t *testing.T) {
	v := httpapi.NewVocabulary(engine.Kinds, record.Kinds, httpguard.Kinds, httpapi.Kinds, assist.Kinds, club.Kinds)
	codes := codesIn(t, "../../engine", "../../assist", "../../assist/record", "../../internal/httpguard", "../../internal/httpapi",
		"../../club")
	if len(codes) < 45 {
		t.Fatalf("found only %d codes; the scan is broken", len(codes))
	}
	for _, c := range codes {
		if v.Kind(engine.Code(c)) == engine.KindNone {
			t.Errorf("code %q has no kind: add it to its package's Kinds", c)
		}
	}
}

// TestKinds_TheProgramsOneVocabularyHasEveryCode: the one vocabulary every
// handler and the relay are given (vocabulary, site.Vocabulary) has a kind
// for every code of every package that answers over HTTP, so no part
// answers a code of another's with 500.
func TestKinds_TheProgramsOneVocabularyHasEveryCode(t *testing.T) {
	codes := codesIn(t, "../../engine", "../../room", "../../bot", "../../server", "../../internal/httpguard", "../../internal/httpapi",
		"../../account", "../../cluster", "../../assist", "../../assist/record", "../../club", "../../clubhttp", "../../tournament", "../../seating")
	if len(codes) < 80 {
		t.Fatalf("found only %d codes; the scan is broken", len(codes))
	}
	for _, c := range codes {
		if vocabulary.Kind(engine.Code(c)) == engine.KindNone {
			t.Errorf("code %q has no kind in the program's vocabulary: add its package's Kinds to site.Vocabulary", c)
		}
	}
}
