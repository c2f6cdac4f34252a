#!/usr/bin/env python3
"""Filter latency of the review queue's REST API (bench/review.sh).

Usage: review_load.py BASE_URL API_KEY [ROUNDS]

Sends ROUNDS (default 50) rounds of the queries the review page makes --
the first page, a deep page, each filter (state, verdict, name search,
server, server-name search), one tool by id and its events -- over one
keep-alive connection, and prints per query and overall p50/p99 latency in
milliseconds and the response size. Every response must be 200.
"""
import http.client
import json
import sys
import time
import urllib.parse


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def main():
    base, key = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    u = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    headers = {"X-API-Key": key, "Accept": "application/json"}

    def get(path):
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        body = r.read()
        ms = (time.perf_counter() - t0) * 1000
        if r.status != 200:
            raise SystemExit("%s: HTTP %d %s" % (path, r.status, body[:200]))
        return ms, body

    _, first = get("/api/v1/queue?per_page=50&servers_per_page=25")
    q = json.loads(first)
    tool_id = q["tools"][0]["id"]
    server_id = q["servers"][3]["id"]
    queries = {
        "queue page 1": "/api/v1/queue?page=1&per_page=50&servers_page=1&servers_per_page=25",
        "queue page 300 (deep)": "/api/v1/queue?page=300&per_page=50&servers_per_page=25",
        "state=changed": "/api/v1/queue?state=changed&per_page=50&servers_per_page=25",
        "verdict=quarantine": "/api/v1/queue?verdict=quarantine&per_page=50&servers_per_page=25",
        "q=tool_05 (name search)": "/api/v1/queue?q=tool_05&per_page=50&servers_per_page=25",
        "server_id": "/api/v1/queue?server_id=%d&per_page=50&servers_per_page=25" % server_id,
        "servers_q=09 (server search)": "/api/v1/queue?servers_q=09&per_page=50&servers_per_page=25",
        "state+verdict+q": "/api/v1/queue?state=pending&verdict=clean&q=_01&per_page=50&servers_per_page=25",
        "tool by id": "/api/v1/tools/%d" % tool_id,
        "events of a tool": "/api/v1/events?tool_id=%d&limit=100" % tool_id,
    }
    times = {k: [] for k in queries}
    sizes = {}
    for _ in range(rounds):
        for name, path in queries.items():
            ms, body = get(path)
            times[name].append(ms)
            sizes[name] = len(body)
    print("queue total %d tools, %d servers with queued tools, counts %s"
          % (q["total"], q["servers_total"], json.dumps(q["counts"])))
    print("%-30s %9s %9s %9s" % ("query", "p50 ms", "p99 ms", "bytes"))
    everything = []
    for name in queries:
        everything += times[name]
        print("%-30s %9.1f %9.1f %9d" % (name, pct(times[name], 50), pct(times[name], 99), sizes[name]))
    print("%-30s %9.1f %9.1f" % ("all %d requests" % len(everything), pct(everything, 50),
                                 pct(everything, 99)))


if __name__ == "__main__":
    main()
