// Package webtest is what the player's page's tests share: the real server
// on loopback over a real SQLite file with the page and the assistant
// mounted as mafia serve mounts them (TestServer, StartServer,
// StartPeopleServer, StartAccountsSite, StartRatedSite), a player's tab in
// the package's one Chromium (Browser, Tab, NewTab, Eval) driven through
// chromedp, tables of people played from Go over real WebSockets
// (PeopleTable, Person) and of watched review games (ReviewTable), and the
// checks the pages share (NoEnglish, View, SeatsOf).
//
// The browser tests drive the page in a real Chromium (Debian's chromium
// package) through chromedp. Without Chromium they are skipped, except in
// CI (CI=true), where a missing browser is a failure.
//
// It is for tests only: nothing in the program imports it. The page's own
// tests that open no browser (package web_test) and its browser tests (the
// packages under web/browsertest, split so that go test runs them side by
// side and none nears its ten-minute timeout) import it.
package webtest
