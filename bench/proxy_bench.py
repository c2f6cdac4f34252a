#!/usr/bin/env python3
"""Benchmark of `mcpvet proxy` (bench/proxy.sh, part of `make bench`).

Two numbers from issue 13 ("cpu/call" is the proxy's relay thread only;
"inline" counts results whose scan the worker could not take, so the
relay scanned them itself; BENCH_PROXY_LISTS=0 skips the lists):
  - pass-through overhead: N tools/call round trips of an echo tool, against
    the server directly and through the proxy; p50 and p99 of each and
    their difference (target: p99 overhead under 0.5 ms for messages under
    64 KiB), for several message sizes;
  - tools/list of 100 tools scanned and checked against the store through
    the proxy, minus direct (target: under 10 ms), the first list of a new
    server (every tool pinned), the steady state (unchanged tools, a new
    session each) and the same list again within one session.

The server is a minimal synchronous echo server in this file (`--serve`), so
the difference measures the proxy, not the fixture. Prints plain text.

On a shared machine the wall times mostly measure the other processes: the
proxy's own time on a CPU and its time waiting for one are read from
/proc/PID/schedstat (Linux) and printed beside them ("cpu" and "wait").
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def serve(n_tools):
    tools = [{"name": "echo", "description": "Returns the text it is given.",
              "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]
    corpus = os.environ.get("BENCH_TOOLS")
    extra = []
    if corpus and os.path.exists(corpus):
        with open(corpus, encoding="utf-8") as f:
            extra = json.load(f).get("tools", [])
    for i in range(n_tools - 1):
        if i < len(extra):
            t = dict(extra[i])
            t["name"] = "%s_%d" % (t.get("name", "tool"), i)
        else:
            t = {"name": "tool_%d" % i,
                 "description": "Reads record %d from the inventory and returns it as JSON." % i,
                 "inputSchema": {"type": "object", "properties": {
                     "id": {"type": "string", "description": "Record identifier"},
                     "fields": {"type": "array", "items": {"type": "string"}}},
                     "required": ["id"]}}
        tools.append(t)
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        req = json.loads(line)
        if "id" not in req:
            continue
        m = req.get("method")
        if m == "initialize":
            res = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                   "serverInfo": {"name": "bench", "version": "1"}}
        elif m == "tools/list":
            res = {"tools": tools}
        elif m == "tools/call":
            text = req["params"]["arguments"]["text"]
            res = {"content": [{"type": "text", "text": text}]}
        else:
            res = {}
        out.write(json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": res},
                             separators=(",", ":")).encode() + b"\n")
        out.flush()


# Result texts of several kinds (BENCH_PROXY_KINDS), each repeated or cut to
# the message size: what tools return is rarely one repeated sentence.
# Deterministic, so the instruction counts of proxy_callgrind.py repeat.
def result_text(kind, size):
    if kind == "y":  # one repeated letter: the worst case for payload.decoded
        return "y" * size
    parts, n, i = [], 0, 0
    while n < size:
        if kind == "prose":
            p = "Order 1042 shipped to Paris on 2026-03-14, status: delivered. "
        elif kind == "json":
            p = ('{"id":%d,"name":"Widget %d","sku":"WX-%05d","price":%d.%02d,'
                 '"tags":["blue","metal"],"in_stock":%s,"updated":"2026-03-%02dT10:%02d:00Z",'
                 '"owner":{"login":"user%d","url":"https://api.example.com/users/%d"}},\n'
                 % (i, i, i * 7 % 100000, i % 500, i % 100, "true" if i % 3 else "false",
                    i % 28 + 1, i % 60, i % 97, i % 97))
        elif kind == "code":
            p = ("def handle_%d(request, ctx=None):\n"
                 "    \"\"\"Return the record for request.id (see issue #%d).\"\"\"\n"
                 "    if request.id < 0 or not ctx:\n"
                 "        raise ValueError(f\"bad id: {request.id!r}\")\n"
                 "    rows = ctx.db.query(\"SELECT * FROM items WHERE id = ?\", (request.id,))\n"
                 "    return {\"status\": 200, \"items\": [r.to_dict() for r in rows]}  # %d\n\n"
                 % (i, i * 13 % 1000, i))
        elif kind == "log":
            p = ("2026-03-14T10:%02d:%02d.%03dZ INFO  [worker-%d] GET /api/v1/orders/%d "
                 "200 %dms user=u%d ip=10.0.%d.%d req=%08x\n"
                 % (i // 60 % 60, i % 60, i * 37 % 1000, i % 8, 1000 + i, i * 7 % 300, i % 50,
                    i % 256, i * 11 % 256, (i * 2654435761) & 0xffffffff))
        elif kind == "base64":
            import base64
            import random
            r = random.Random(size)
            return base64.b64encode(bytes(r.randrange(256) for _ in range(size))).decode()[:size]
        else:
            raise SystemExit("bench: unknown text kind %r (prose json code log base64 y)" % kind)
        parts.append(p)
        n += len(p)
        i += 1
    return "".join(parts)[:size]


class Client:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  bufsize=0)
        # buffered reads (a raw pipe's readline reads one byte at a time)
        self.f = open(self.p.stdout.fileno(), "rb", buffering=1 << 20, closefd=False)
        self.id = 0

    def req(self, method, params=None):
        self.id += 1
        msg = {"jsonrpc": "2.0", "id": self.id, "method": method}
        if params is not None:
            msg["params"] = params
        data = json.dumps(msg, separators=(",", ":")).encode() + b"\n"
        t0 = time.perf_counter_ns()
        self.p.stdin.write(data)
        line = self.f.readline()
        t1 = time.perf_counter_ns()
        r = json.loads(line)
        if "result" not in r:
            raise SystemExit("bench: %s failed: %r" % (method, r))
        return r, (t1 - t0) / 1e3

    def init(self):
        self.req("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "1"}})
        self.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def close(self):
        self.p.stdin.close()
        self.p.wait(30)


def schedstat(pid):
    """(ns on a CPU, ns runnable but waiting for one) of a process, or None."""
    try:
        with open("/proc/%d/schedstat" % pid, encoding="ascii") as f:
            a = f.read().split()
        return int(a[0]), int(a[1])
    except (OSError, ValueError, IndexError):
        return None


def sched_delta(a, b):
    return None if a is None or b is None else ((b[0] - a[0]) / 1e6, (b[1] - a[1]) / 1e6)


def inline_scans(log):
    """Results the proxy scanned on its relay's thread (its scan worker's
    queue was full), from the log's closing line; 0 when there is none."""
    try:
        with open(log, encoding="utf-8") as f:
            for line in f:
                if "the result scanner fell behind: " in line:
                    return int(line.split("fell behind: ")[1].split()[0])
    except OSError:
        pass
    return 0


def pct(v, q):
    s = sorted(v)
    return s[min(len(s) - 1, int(q * len(s)))]


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--text":  # --text KIND SIZE: one result text
        sys.stdout.write(result_text(sys.argv[2], int(sys.argv[3])))
        return
    mcpvet = sys.argv[1]
    calls = int(os.environ.get("BENCH_PROXY_CALLS", "10000"))
    sizes = [int(x) for x in os.environ.get("BENCH_PROXY_SIZES", "100 4096 65000").split()]
    me = os.path.abspath(__file__)
    tmp = tempfile.mkdtemp()
    store = os.path.join(tmp, "store.db")
    server = [sys.executable, me, "--serve"]
    proxied = [mcpvet, "proxy", "--store", store, "--log", os.path.join(tmp, "log"),
               "--name", "bench", "--"]
    print("== proxy pass-through: tools/call round trip, %d calls per size "
          "(microseconds; proxy = through mcpvet proxy)" % calls)
    print("%6s %8s  %9s %9s  %9s %9s  %10s %10s  %9s  %6s" % (
        "kind", "bytes", "direct50", "direct99", "proxy50", "proxy99", "over50", "over99", "cpu/call",
        "inline"))
    # Text like a tool's output, of the kinds in BENCH_PROXY_KINDS (result_text:
    # prose, json, code, log, base64; y is one repeated letter, a worst case
    # for payload.decoded, which must try it as base64). BENCH_PROXY_TEXT=y
    # is the old spelling of BENCH_PROXY_KINDS=y.
    kinds = os.environ.get("BENCH_PROXY_KINDS",
                           "y" if os.environ.get("BENCH_PROXY_TEXT") == "y" else "prose").split()
    for kind, size in [(k, s) for k in kinds for s in sizes]:
        text = result_text(kind, size)
        res = {}
        cpu = None
        # A log of its own per size: its last line says how many results
        # the scan worker could not take (scanned on the relay's thread).
        log = os.path.join(tmp, "log-%s-%d" % (kind, size))
        sized = [mcpvet, "proxy", "--store", store, "--log", log, "--name", "bench", "--"]
        for label, argv in (("direct", server + ["1"]), ("proxy", sized + server + ["1"])):
            c = Client(argv)
            c.init()
            c.req("tools/list")
            for _ in range(200):  # warm-up
                c.req("tools/call", {"name": "echo", "arguments": {"text": text}})
            s0 = schedstat(c.p.pid)
            v = [c.req("tools/call", {"name": "echo", "arguments": {"text": text}})[1]
                 for _ in range(calls)]
            d = sched_delta(s0, schedstat(c.p.pid))
            if label == "proxy" and d is not None:
                cpu = d[0] * 1e3 / calls  # the proxy's own CPU time per call, us
            c.close()
            res[label] = v
        d50, d99 = pct(res["direct"], .5), pct(res["direct"], .99)
        p50, p99 = pct(res["proxy"], .5), pct(res["proxy"], .99)
        print("%6s %8d  %9.1f %9.1f  %9.1f %9.1f  %10.1f %10.1f  %9s  %6d" % (
            kind, size, d50, d99, p50, p99, p50 - d50, p99 - d99,
            "%.1f" % cpu if cpu is not None else "-", inline_scans(log)))
    if os.environ.get("BENCH_PROXY_LISTS", "1") == "0":
        return
    print()
    print("== tools/list of 100 tools through the proxy (milliseconds; scan + store; "
          "cpu/wait: the proxy's own time on a CPU / waiting for one, p50)")
    for label, fresh in (("first list (every tool pinned)", True), ("steady state", False)):
        dv, pv, cv, wv = [], [], [], []
        runs = 20
        for _ in range(runs):
            c = Client(server + ["100"])
            c.init()
            dv.append(c.req("tools/list")[1] / 1e3)
            c.close()
        for _ in range(runs):
            if fresh and os.path.exists(store):
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(store + suffix):
                        os.unlink(store + suffix)
            c = Client(proxied + server + ["100"])
            c.init()
            s0 = schedstat(c.p.pid)
            r, t = c.req("tools/list")
            d = sched_delta(s0, schedstat(c.p.pid))
            if len(r["result"]["tools"]) != 100:
                raise SystemExit("bench: the proxy passed %d of 100 tools" %
                                 len(r["result"]["tools"]))
            pv.append(t / 1e3)
            if d is not None:
                cv.append(d[0])
                wv.append(d[1])
            c.close()
        print("%-32s direct p50 %.2f  proxy p50 %.2f p99 %.2f  overhead p50 %.2f p99 %.2f"
              "  cpu %s wait %s" % (
                  label, pct(dv, .5), pct(pv, .5), pct(pv, .99), pct(pv, .5) - pct(dv, .5),
                  pct(pv, .99) - pct(dv, .99), "%.2f" % pct(cv, .5) if cv else "-",
                  "%.2f" % pct(wv, .5) if wv else "-"))
    # The same list again in one session (a client that lists again, or a
    # list_changed that changed nothing): the guard reuses its last scan of
    # an identical list and does only the store check.
    dv, pv = [], []
    for label, argv, v in (("direct", server + ["100"], dv),
                           ("proxy", proxied + server + ["100"], pv)):
        c = Client(argv)
        c.init()
        c.req("tools/list")
        for _ in range(20):
            r, t = c.req("tools/list")
            if len(r["result"]["tools"]) != 100:
                raise SystemExit("bench: the proxy passed %d of 100 tools" %
                                 len(r["result"]["tools"]))
            v.append(t / 1e3)
        c.close()
    print("%-32s direct p50 %.2f  proxy p50 %.2f p99 %.2f  overhead p50 %.2f p99 %.2f" % (
        "same session, listed again", pct(dv, .5), pct(pv, .5), pct(pv, .99),
        pct(pv, .5) - pct(dv, .5), pct(pv, .99) - pct(dv, .99)))


if __name__ == "__main__":
    main()
