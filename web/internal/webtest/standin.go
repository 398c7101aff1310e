package webtest

import (
	"context"

	"mafia/client"
)

// Drain reads a connection until it closes: the server never finds it slow.
func Drain(ctx context.Context, c *client.Conn) {
	go func() {
		for {
			if _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
}
