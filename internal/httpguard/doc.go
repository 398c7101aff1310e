// Package httpguard holds the HTTP checks that every public handler of
// `mafia serve` shares: who the client is (its address, through the
// reverse proxies the operator trusts), whether a cookie may be marked
// Secure (the server's public URL, or a trusted proxy that says the client
// came over https), and whether a browser's state-changing request comes
// from one of the server's own pages (Origin or Sec-Fetch-Site, and a
// Content-Type that a foreign page cannot send without asking first); and
// a per-address request rate (Rates), whose numbers its caller chooses.
//
// It owns those decisions and their refusal codes. It must not know
// tables, seats, tokens or limits: the server (and the host's assistant)
// decide what to do with an address or a refusal.
package httpguard
