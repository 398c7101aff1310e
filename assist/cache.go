package assist

// This file bounds the games the assistant keeps in memory.

import "container/list"

// DefaultMaxGames is how many games the assistant keeps in memory unless
// Config.MaxGames says otherwise: far more than a club plays at once (a
// few tables an evening), so that the games going on and the ones looked
// at again stay loaded, while a store of years of games is never all
// read into memory.
const DefaultMaxGames = 256

// gameCache is the games in memory, by table ID, the least recently used
// first to go once there are more than max. The handler's mutex guards it.
//
// A game is not dropped while a request uses it, from the moment it finds
// the game (game.waiting) to the moment it unlocks it (its mutex, which
// the cache tries and does not wait for): that request goes on with its
// copy, and the next one would read another copy from the store beside
// it. Such a game is passed over for the next least recently used, and the
// cache is trimmed again when a request is done with its game
// (Handler.unlock): it holds more than max games only while more than max
// are in use at once. A game dropped is marked stale, under its mutex, for
// whoever still holds it.
type gameCache struct {
	max   int
	order *list.List               // of *cachedGame, the most recently used first
	byID  map[string]*list.Element // the element of each game in order
}

type cachedGame struct {
	id string
	gm *game
}

func newGameCache(max int) *gameCache {
	if max <= 0 {
		max = DefaultMaxGames
	}
	return &gameCache{max: max, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns game id (nil if it is not in memory), now the most recently
// used.
func (c *gameCache) get(id string) *game {
	e := c.byID[id]
	if e == nil {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedGame).gm
}

// add keeps gm as game id, the most recently used, and trims the cache.
func (c *gameCache) add(id string, gm *game) {
	if e := c.byID[id]; e != nil {
		e.Value.(*cachedGame).gm = gm
		c.order.MoveToFront(e)
	} else {
		c.byID[id] = c.order.PushFront(&cachedGame{id: id, gm: gm})
	}
	c.trim()
}

// trim drops the least recently used games not in use (never the most
// recently used one) while there are more than max. Handler.mu is held: a
// game's mutex is only tried (TryLock), never waited for, since a request
// holding it may be waiting for Handler.mu.
func (c *gameCache) trim() {
	for e := c.order.Back(); c.order.Len() > c.max && e != nil && e != c.order.Front(); {
		prev := e.Prev()
		if old := e.Value.(*cachedGame); old.gm.waiting == 0 && old.gm.mu.TryLock() {
			old.gm.stale = true // whoever found it loads it again
			old.gm.mu.Unlock()
			c.order.Remove(e)
			delete(c.byID, old.id)
		}
		e = prev
	}
}

// remove drops game id from memory.
func (c *gameCache) remove(id string) {
	if e := c.byID[id]; e != nil {
		c.order.Remove(e)
		delete(c.byID, id)
	}
}

// len is how many games are in memory.
func (c *gameCache) len() int { return c.order.Len() }
