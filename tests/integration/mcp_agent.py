#!/usr/bin/env python3
"""A small streamable-HTTP MCP client, the agent of proxy_http_streams.sh.

It does what the Inspector CLI cannot: holds the session's GET event
stream open, reads a POST reply that comes as an event stream message by
message, answers the server's requests (sampling, roots, ping) as they
arrive on either stream, and sends JSON-RPC batches. Every message seen is
kept, so a test can check what arrived, where, and with which id.

Used as a module (scenarios in the test script):
    a = Agent(url, version="2025-03-26", caps={"sampling": {}})
    a.initialize(); a.open_stream()
    msgs = a.request("tools/call", {...})   # every message of the reply
"""
import http.client
import json
import queue
import threading
import time
import urllib.parse


def sse_events(resp):
    """The data of each event of an event-stream response, as it comes."""
    data = []
    while True:
        line = resp.readline()
        if not line:
            return
        line = line.decode().rstrip("\r\n")
        if line == "":
            if data:
                yield "\n".join(data)
            data = []
        elif line.startswith("data:"):
            v = line[5:]
            data.append(v[1:] if v.startswith(" ") else v)


class Agent:
    def __init__(self, url, version="2025-03-26", caps=None, answers=None):
        u = urllib.parse.urlparse(url)
        self.host, self.port, self.path = u.hostname, u.port, u.path
        self.version = version
        self.caps = caps or {}
        # method -> result for the server's requests (else an error)
        self.answers = answers or {}
        self.sid = None
        self.next_id = 0
        self.stream = queue.Queue()  # messages of the GET stream
        self.stream_open = False
        self.stream_ended = threading.Event()
        self.answered = []  # (where, request) the agent answered
        self.lock = threading.Lock()

    def headers(self, sse=True):
        h = {"Content-Type": "application/json",
             "Accept": "application/json, text/event-stream" if sse else "application/json"}
        if self.sid:
            h["Mcp-Session-Id"] = self.sid
            h["MCP-Protocol-Version"] = self.version
        return h

    def conn(self, timeout=60):
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def answer(self, req, where):
        """Answer a request of the server (ids as they came)."""
        m = req.get("method")
        if m in self.answers:
            msg = {"jsonrpc": "2.0", "id": req["id"], "result": self.answers[m]}
        elif m == "ping":
            msg = {"jsonrpc": "2.0", "id": req["id"], "result": {}}
        else:
            msg = {"jsonrpc": "2.0", "id": req["id"],
                   "error": {"code": -32601, "message": "not supported by the test agent"}}
        with self.lock:
            self.answered.append((where, req))
        st, _, _ = self.post_raw(json.dumps(msg))
        if st != 202:
            raise RuntimeError("answer to %r: HTTP %d" % (m, st))

    def post_raw(self, body, sse=True, on_message=None):
        """POST `body`; (status, headers, [messages])."""
        c = self.conn()
        c.request("POST", self.path, body=body.encode(), headers=self.headers(sse))
        r = c.getresponse()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        msgs = []
        if hdrs.get("content-type", "").startswith("text/event-stream"):
            for data in sse_events(r):
                m = json.loads(data)
                msgs.append(m)
                if on_message:
                    on_message(m)
        else:
            raw = r.read()
            if raw:
                v = json.loads(raw)
                msgs.extend(v if isinstance(v, list) else [v])
        c.close()
        return r.status, hdrs, msgs

    def post(self, body, sse=True):
        def take(m):
            if "method" in m and "id" in m:
                self.answer(m, "post")
        return self.post_raw(body, sse, take)

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def request(self, method, params=None, sse=True):
        msg = {"jsonrpc": "2.0", "id": self.new_id(), "method": method}
        if params is not None:
            msg["params"] = params
        st, hdrs, msgs = self.post(json.dumps(msg), sse)
        if st != 200:
            raise RuntimeError("%s: HTTP %d %r" % (method, st, msgs))
        return msgs

    def final(self, msgs):
        """The response among the messages of a reply."""
        return [m for m in msgs if "method" not in m][-1]

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        st, _, _ = self.post_raw(json.dumps(msg))
        return st

    def initialize(self):
        msg = {"jsonrpc": "2.0", "id": self.new_id(), "method": "initialize",
               "params": {"protocolVersion": self.version, "capabilities": self.caps,
                          "clientInfo": {"name": "mcpvet-test-agent", "version": "1"}}}
        st, hdrs, msgs = self.post_raw(json.dumps(msg))
        if st != 200:
            raise RuntimeError("initialize: HTTP %d %r" % (st, msgs))
        self.sid = hdrs.get("mcp-session-id")
        self.version = msgs[-1]["result"]["protocolVersion"]
        self.notify("notifications/initialized")
        return msgs[-1]

    def open_stream(self):
        """Open the GET stream; its messages go to self.stream, the
        server's requests on it are answered. Returns the HTTP status."""
        c = self.conn(timeout=None)
        h = self.headers()
        h["Accept"] = "text/event-stream"
        del h["Content-Type"]
        c.request("GET", self.path, headers=h)
        r = c.getresponse()
        if r.status != 200:
            r.read()
            c.close()
            return r.status

        def run():
            try:
                for data in sse_events(r):
                    m = json.loads(data)
                    self.stream.put(m)
                    if "method" in m and "id" in m:
                        self.answer(m, "get")
            except (OSError, http.client.HTTPException, ValueError):
                pass
            self.stream_ended.set()
            c.close()
        self.stream_open = True
        threading.Thread(target=run, daemon=True).start()
        return 200

    def wait_stream(self, pred, timeout=20):
        """The first message of the GET stream that satisfies pred."""
        end = time.time() + timeout
        while time.time() < end:
            try:
                m = self.stream.get(timeout=max(0.1, end - time.time()))
            except queue.Empty:
                break
            if pred(m):
                return m
        return None

    def delete(self):
        c = self.conn()
        c.request("DELETE", self.path, headers=self.headers())
        r = c.getresponse()
        r.read()
        c.close()
        return r.status
