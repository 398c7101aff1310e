#!/usr/bin/env python3
"""A Mafia bot in Python, written from docs/protocol.md and docs/bots.md alone.

It uses the standard library only (no pip install): urllib for the HTTP
lobby API and a small WebSocket client of its own (RFC 6455, about a hundred
lines below), so that it runs wherever python3 does. A real bot may use any
WebSocket library instead; nothing else changes.

It joins a table (or creates one, hosts it and fills it with the server's
bots, expert ones unless --bots says otherwise), then plays from its view: it keeps a suspicion score per seat from
what is public (nominations, votes, deaths, statements), nominates and votes
the most suspicious, reports its own checks as statements when it is the
Detective, and reconnects with ?since= if the connection drops.

    python3 docs/examples/pybot/mafiabot.py --server http://127.0.0.1:8080 --create --players 7
    python3 docs/examples/pybot/mafiabot.py --server http://127.0.0.1:8080 --table 5f71e455a543935b --name Robo
"""

import argparse
import base64
import hashlib
import json
import os
import random
import socket
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


# --- HTTP: the lobby API -----------------------------------------------------

class APIError(Exception):
    """A refusal of the HTTP API: its status, code and sentence."""


def post(base, path, body, token=""):
    """POSTs a JSON body and returns the decoded JSON answer."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        err = json.load(e).get("error", {})
        raise APIError(f"POST {path}: HTTP {e.code} {err.get('code')}: {err.get('message')}") from None


# --- A minimal WebSocket client (RFC 6455) -----------------------------------

class Closed(Exception):
    """The WebSocket was closed; code and reason as the server gave them."""

    def __init__(self, code, reason):
        super().__init__(f"closed {code} {reason}")
        self.code, self.reason = code, reason


class WebSocket:
    """Text frames over a plain TCP socket (ws://, as a local server speaks)."""

    def __init__(self, url, headers):
        u = urllib.parse.urlsplit(url)
        if u.scheme != "ws":
            raise ValueError("this small client speaks ws:// only; use a WebSocket library for wss://")
        self.sock = socket.create_connection((u.hostname, u.port or 80), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        path = u.path + ("?" + u.query if u.query else "")
        lines = [f"GET {path} HTTP/1.1", f"Host: {u.netloc}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Closed(0, "handshake: connection closed")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0].decode()
        if " 101 " not in status + " ":
            raise Closed(0, "handshake: " + status)
        want = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        if want not in head:
            raise Closed(0, "handshake: bad Sec-WebSocket-Accept")

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Closed(1006, "connection lost")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send_frame(self, opcode, payload):
        mask = os.urandom(4)  # a client masks every frame
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, text):
        """Sends one text frame."""
        self._send_frame(0x1, text.encode())

    def recv(self):
        """Returns the next text message, answering pings on the way."""
        message, opcode = b"", None
        while True:
            b0, b1 = self._read(2)
            fin, op, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)  # a server never masks
            if op == 0x9:  # ping: answer with a pong carrying the same bytes
                self._send_frame(0xA, payload)
                continue
            if op == 0xA:
                continue
            if op == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                try:
                    self._send_frame(0x8, payload[:2])
                except OSError:
                    pass
                raise Closed(code, payload[2:].decode(errors="replace"))
            if op != 0x0:
                opcode = op
            message += payload
            if fin:
                if opcode != 0x1:
                    raise Closed(1003, "the server sent a binary frame")
                return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
            self.sock.close()
        except OSError:
            pass


# --- The bot ------------------------------------------------------------------

class Bot:
    """One seat: what it knows, and what it needs to act and to reconnect."""

    def __init__(self, base, table, token, lang, host, rnd):
        self.base, self.table, self.token, self.lang, self.host = base, table, token, lang, host
        self.rnd = rnd
        self.seq = 0            # events received: the ?since= of a reconnect
        self.view = None
        self.fresh = False      # a view came since the last move
        self.paused = False
        self.waiting = 0        # the id of the request in flight, 0 if none
        self.next_id = 0
        self.acted_step = 0     # the step of the last move sent
        self.suspicion = {}     # seat -> score: higher is more suspicious
        self.checks = {}        # seat -> "mafia" / "not_mafia": my own checks (Detective)
        self.reported = set()   # checks already stated
        self.ws = None

    # Reading the table.

    def suspect(self, seat, by):
        self.suspicion[seat] = self.suspicion.get(seat, 0.0) + by

    def absorb(self, e):
        """Folds one public or private event into what the bot believes."""
        kind = e.get("kind")
        me = self.view["seat"] if self.view else 0
        if kind == "checked" and e.get("result"):
            self.checks[e["target"]] = e["result"]
            self.suspect(e["target"], 100 if e["result"] == "mafia" else -100)
        elif kind == "nominated" and e.get("target") == me:
            self.suspect(e.get("actor", 0), 1.0)   # whoever puts me up is suspect to me
        elif kind == "vote_closed":
            # ballot[i] is whom seat i+1 was counted for: public once closed.
            for i, target in enumerate(e.get("ballot", [])):
                if target == me:
                    self.suspect(i + 1, 0.5)
        elif kind == "player_out" and e.get("team"):
            # A card revealed on leaving (reveal_on_death): certain.
            self.suspect(e["target"], 100 if e["team"] == "mafia" else -100)
        elif kind == "statement":
            self.absorb_statement(e)

    def absorb_statement(self, e):
        """A statement is a claim, not a truth: weigh it, never believe it blindly."""
        by, verb, target = e.get("actor", 0), e.get("verb"), e.get("target", 0)
        me = self.view["seat"] if self.view else 0
        mine = self.view.get("role") if self.view else ""
        if verb == "report" and target == me and e.get("result") == "mafia" and mine not in ("don", "mafia"):
            self.suspect(by, 3.0)                   # a lie about me: I know my own card
        elif verb == "report" and e.get("result") == "mafia":
            self.suspect(target, 1.0)
        elif verb == "claim" and e.get("role") == "detective" and mine == "detective" and by != me:
            self.suspect(by, 3.0)                   # a second Detective: I know who the real one is
        elif verb == "suspect" and target == me:
            self.suspect(by, 0.5)

    def most_suspicious(self, seats):
        """The seat of seats with the highest score (ties drawn at random)."""
        if not seats:
            return 0
        top = max(self.suspicion.get(s, 0.0) for s in seats)
        return self.rnd.choice([s for s in seats if self.suspicion.get(s, 0.0) == top])

    # Acting.

    def send(self, msg):
        self.next_id += 1
        msg = dict(msg, v=1, id=self.next_id)
        self.ws.send(json.dumps(msg))
        return self.next_id

    def command(self, verb, target=0, **extra):
        m = {"type": "command", "verb": verb, "step": self.view["step"]}
        if target:
            m["target"] = target
        m.update(extra)
        return self.send(m)

    def act(self):
        """Sends one move from the view's legal moves, if it is the bot's turn."""
        v = self.view
        if not v or not self.fresh or self.waiting or self.paused or v["phase"] == "ended":
            return
        legal = v.get("legal", {})
        friends = {s["seat"] for s in v.get("seats", []) if s.get("team") == "mafia"}
        move = None
        if legal.get("kill"):
            targets = [s for s in legal["kill"] if s not in friends] or legal["kill"]
            move = ("kill", self.rnd.choice(targets))
        elif legal.get("check"):
            unknown = [s for s in legal["check"] if s not in self.checks] or legal["check"]
            move = ("check", self.most_suspicious(unknown))
        elif legal.get("shoot"):
            move = ("shoot", self.most_suspicious(legal["shoot"]))
        elif legal.get("heal"):
            move = ("heal", self.rnd.choice(legal["heal"]))
        elif legal.get("skip"):
            move = ("skip", 0)
        elif legal.get("nominate") and self.acted_step != v["step"]:
            self.speak()
            pick = self.most_suspicious([s for s in legal["nominate"] if s not in friends] or legal["nominate"])
            move = ("nominate", pick)
        elif legal.get("vote"):
            choices = [s for s in legal["vote"] if s not in friends] or legal["vote"]
            move = ("vote", self.most_suspicious(choices))
        elif legal.get("all_vote"):
            self.fresh = False
            self.waiting = self.command("all_vote", yes=self.rnd.random() < 0.5)
            return
        elif legal.get("pass"):
            if self.acted_step != v["step"]:
                self.speak()
            move = ("pass", 0)
        if move is None:
            return
        self.fresh, self.acted_step = False, v["step"]
        self.waiting = self.command(*move)

    def statement(self, verb, target=0, **extra):
        """Makes a statement (a command on one's own floor) if the view offers it."""
        legal = self.view.get("legal", {})
        if verb == "claim" and not legal.get("claim"):
            return
        if verb != "claim" and target not in legal.get(verb, []):
            return
        print(f"I say: {verb} {target or ''} {' '.join(str(v) for v in extra.values())}".rstrip())
        self.command(verb, target, **extra)

    def speak(self):
        """During the bot's own floor: its statements, then a line of chat.

        The Detective claims his card once he has found a mafioso and reports
        every mafioso found; everyone says whom they suspect most (chosen at
        random among equals: on day 1 nobody knows anything yet)."""
        found = [s for s, r in self.checks.items() if r == "mafia" and s not in self.reported]
        if self.view.get("role") == "detective" and found:
            if not self.reported:
                self.statement("claim", role="detective")
            for seat in found:
                self.reported.add(seat)
                self.statement("report", seat, result="mafia")
        others = [s["seat"] for s in self.view.get("seats", []) if s.get("alive") and s["seat"] != self.view["seat"]]
        worst = self.most_suspicious(others)
        if worst:
            self.statement("suspect", worst)
        self.send({"type": "chat", "channel": "town", "text": "I have said what I know."})

    # The connection.

    def handle(self, m):
        """Takes one frame; returns True when the game is over."""
        t = m.get("type")
        if t in ("welcome", "update"):
            if m.get("events"):
                self.seq = m["seq"]
            if m.get("view"):
                self.view, self.fresh = m["view"], True
            for e in m.get("events", []):
                self.absorb(e)
            self.paused = m.get("paused", False)
            if t == "welcome" and self.host and not m.get("view"):
                self.send({"type": "host", "action": "add_bots"})
                self.send({"type": "host", "action": "start"})
                return False
        elif t in ("reply", "error"):
            if t == "error":
                print(f"refused (request {m.get('id')}): {m.get('code')}: {m.get('message')}", file=sys.stderr)
            # A frame refused unread (rate_limited, too_large, malformed) is
            # answered without its id: it answers the one request in flight.
            if m.get("id") == self.waiting or (t == "error" and not m.get("id")):
                self.waiting = 0
        elif t == "chat":
            print(f"[{m.get('channel')}] {m.get('from')} {m.get('name', '')}: {m.get('text')}")
        if self.view and self.view["phase"] == "ended":
            print(f"game over: {self.view.get('winner')} wins (I was the {self.view.get('role')})")
            return True
        self.act()
        return False

    def session(self):
        """One WebSocket connection; returns True when the game is over."""
        url = (self.base.replace("http", "ws", 1) + f"/api/tables/{self.table}/ws?since={self.seq}&lang={self.lang}")
        self.ws = WebSocket(url, {"Authorization": "Bearer " + self.token})
        self.waiting = 0
        try:
            while True:
                if self.handle(json.loads(self.ws.recv())):
                    return True
        finally:
            self.ws.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default="http://127.0.0.1:8080")
    ap.add_argument("--table", default="", help="the table to join (its id)")
    ap.add_argument("--name", default="PyBot")
    ap.add_argument("--create", action="store_true", help="create a table, host it, fill it with bots and start")
    ap.add_argument("--players", type=int, default=7, help="with --create: the table's size (5 to 11)")
    ap.add_argument("--lang", default="en", help="language of the server's sentences: ka, en or ru")
    ap.add_argument("--seed", type=int, default=None, help="seed of the bot's own choices")
    ap.add_argument("--card", default="", help="with --create: a sandbox table where this bot is dealt this card (detective, doctor, don, ...)")
    ap.add_argument("--bots", default="expert", help="with --create: the level of the server's bots (expert, smart, random, or one per side: town=smart,mafia=random,maniac=random)")
    args = ap.parse_args()

    base = args.server.rstrip("/")
    table, token, host = args.table, "", False
    if args.create:
        created = post(base, "/api/tables", {
            "name": args.name + "'s table", "players": args.players, "public": False,
            # The server's bots play at this level (without it they play at random).
            "bots": args.bots,
            "timings_ms": {"speech": 3000, "defence": 2000, "tie_speech": 2000,
                           "last_words": 2000, "night": 2000, "vote": 3000},
            # A sandbox (private, never rated) deals this bot the card asked for.
            **({"sandbox": {"card": args.card}} if args.card else {})})
        table, token, host = created["table"], created["host_token"], True
        print(f"created table {table}")
    if not table:
        sys.exit("give --table ID or --create")
    joined = post(base, f"/api/tables/{table}/join", {"name": args.name}, token)
    print(f"seat {joined['seat']} at table {table}")
    bot = Bot(base, table, joined["token"], args.lang, host, random.Random(args.seed))
    for attempt in range(10):
        try:
            if bot.session():
                return
        except Closed as e:
            if e.code == 1008:  # the server's refusal (kicked, seat_left, ...): do not come back
                sys.exit(f"dropped by the server: {e.reason}")
            print(f"connection lost ({e}); reconnecting with since={bot.seq}", file=sys.stderr)
        except OSError as e:
            print(f"connection lost ({e}); reconnecting with since={bot.seq}", file=sys.stderr)
        time.sleep(1)
    sys.exit("giving up")


if __name__ == "__main__":
    main()
