package assist

// GamesInMemory is how many games h keeps in memory, for the tests of their
// bound (in package assist_test).
func GamesInMemory(h *Handler) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.games.len()
}
