// Command mafiawatch follows a table as a spectator (no token): it prints
// every public event and chat line, and the clock, until the game ends. It is
// written from docs/protocol.md alone (net/http, encoding/json and
// github.com/coder/websocket only).
//
//	go run ./docs/examples/mafiawatch -server http://127.0.0.1:8080 -table 5f71e455a543935b
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

type frame struct {
	Type     string            `json:"type"`
	Seq      int               `json:"seq"`
	Events   []json.RawMessage `json:"events"`
	View     *struct{ Phase, Winner string }
	Deadline int64  `json:"deadline"`
	Paused   bool   `json:"paused"`
	Now      int64  `json:"now"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Channel  string `json:"channel"`
	From     int    `json:"from"`
	Name     string `json:"name"`
	Text     string `json:"text"`
}

func main() {
	server := flag.String("server", "http://127.0.0.1:8080", "the server's base URL")
	table := flag.String("table", "", "the table's id")
	flag.Parse()
	if *table == "" {
		log.Fatal("give -table ID")
	}
	seq := 0 // public events seen so far: the ?since= of a reconnect
	for attempt := 0; attempt < 10; attempt++ {
		over, err := watch(*server, *table, &seq)
		if over {
			return
		}
		log.Printf("connection lost (%v); reconnecting with since=%d", err, seq)
		time.Sleep(time.Second)
	}
}

func watch(server, table string, seq *int) (bool, error) {
	ctx := context.Background()
	u := strings.Replace(strings.TrimRight(server, "/"), "http", "ws", 1) +
		"/api/tables/" + table + "/ws?since=" + strconv.Itoa(*seq)
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		return false, err
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return false, err
		}
		var f frame
		if err := json.Unmarshal(data, &f); err != nil {
			return false, err
		}
		switch f.Type {
		case "welcome", "update":
			for _, e := range f.Events {
				fmt.Printf("event %s\n", e)
			}
			if len(f.Events) > 0 {
				*seq = f.Seq
			}
			switch {
			case f.Paused:
				fmt.Println("clock: paused")
			case f.Deadline != 0:
				fmt.Printf("clock: %.1f s left\n", float64(f.Deadline-f.Now)/1000)
			}
			if f.View != nil && f.View.Phase == "ended" {
				fmt.Printf("game over: %s\n", f.View.Winner)
				c.Close(websocket.StatusNormalClosure, "")
				return true, nil
			}
		case "warning":
			fmt.Println("clock: 10 s left")
		case "chat":
			fmt.Printf("[%s] %d %s: %s\n", f.Channel, f.From, f.Name, f.Text)
		case "error":
			fmt.Printf("error %s: %s\n", f.Code, f.Message)
		}
	}
}
