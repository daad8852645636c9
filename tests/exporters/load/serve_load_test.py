#!/usr/bin/env python3
"""`rdmadiag serve` (simulated fabric, fast intervals so snapshots change under the load) under
concurrent load from another process on loopback: /metrics and every /api/v1 route.

Checks:
  - every request of the load run gets a complete 2xx answer (no status or socket errors);
  - the daemon's resident memory does not grow between the first and the last third of the run
    (median of each third; a generous margin: this is a leak check, not a target);
  - slowloris: hundreds of clients sending their request head a byte at a time and clients that
    never send anything do not block others: a load run during them has no errors, and they are
    all still connected when it is over (so it was served while they held their connections);
  - oversized requests (huge header, huge URL, too many headers, a body on GET, chunked or not)
    are answered 4xx or closed, never 2xx, and the daemon keeps serving.

Speed is not judged here (scripts/bench-load prints it).

In a sanitizer build the RSS bound is not checked (AddressSanitizer keeps freed memory in
quarantine, up to 256 MiB, so RSS grows by design); leaks are then LeakSanitizer's to find,
which runs when the daemon exits: the daemon must exit 0 on SIGTERM in both builds.

Usage: serve_load_test.py RDMADIAG_BINARY HTTP_LOAD_BINARY [plain|sanitized]"""

import os
import socket
import subprocess
import sys
import threading
import time

import rdmadiag_bed as bed

ROUTES = ["/metrics", "/healthz", "/api/v1/snapshot", "/api/v1/status", "/api/v1/ports",
          "/api/v1/pkeys", "/api/v1/counters", "/api/v1/findings", "/api/v1/events",
          "/api/v1/mrs", "/api/v1/ports?device=mlx5_0&port=1", "/api/v1/mrs?state=stuck"]
LOAD_SECONDS = 20
CONNECTIONS = 16
DRIBBLERS = 300  # clients sending their head a byte at a time
SILENT = 100  # clients that connect and send nothing
# Growth allowed between the first and last third of the run: a leak of even a few hundred
# bytes per request (tens of thousands of requests) would exceed it.
RSS_MARGIN_KB = 8 * 1024
RSS_MARGIN_RATIO = 1.25


def run_load(http_load, port, seconds, pid=None, connections=CONNECTIONS):
    cmd = [http_load, "--port", str(port), "--seconds", str(seconds),
           "--connections", str(connections)]
    if pid:
        cmd += ["--pid", str(pid), "--sample-ms", "100"]
    r = subprocess.run(cmd + ROUTES, capture_output=True, text=True, timeout=seconds + 120)
    values = {}
    for line in r.stdout.splitlines():
        if "=" in line and not line.startswith("path "):
            k, v = line.split("=", 1)
            values[k] = v
    return r.returncode, values, r.stdout + r.stderr


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def still_open(s):
    """True when the server has neither closed nor answered the connection."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)
        return False  # closed (b"") or answered: either way no longer waiting
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


def exchange(port, data):
    """Sends `data` (as much as the server takes) and returns the answer's status, or None when
    the server closed or reset the connection without one."""
    s = connect(port)
    try:
        try:
            s.sendall(data)
        except OSError:
            pass  # the server stopped reading: what it answered (if anything) is still readable
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except OSError:
            pass
    finally:
        s.close()
    if not out.startswith(b"HTTP/1."):
        return None
    return int(out[9:12])


def get_status(port, path):
    return exchange(port, f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())


def main():
    rdmadiag, http_load = sys.argv[1], sys.argv[2]
    sanitized = len(sys.argv) > 3 and sys.argv[3] == "sanitized"
    for exe in (rdmadiag, http_load):
        bed.require_exporter(exe)
    failures = []

    with bed.Bed("load") as b:
        nosys = os.path.join(b.dir, "no-sysfs")
        # A long request timeout: the slowloris clients must still be connected when the load
        # run during them ends, so that its success says they did not block it.
        proc, port, log = b.start_daemon(rdmadiag, [
            "--simulate", "--source.sysfs", f"--path.sysfs={nosys}", "--interval.pkeys=1s",
            "--interval.counters=1s", "--web.request-timeout=120s"])
        if not bed.wait_until("/healthz", lambda: get_status(port, "/healthz") == 200,
                              timeout=30, interval=0.2, fail=False):
            failures.append("/healthz never became ready")

        # Load, with memory sampled through the run (after a short warm-up: the allocator's
        # arenas and the metrics cache reach their working size in the first requests).
        run_load(http_load, port, 3)
        rc, v, out = run_load(http_load, port, LOAD_SECONDS, pid=proc.pid)
        print(out)
        if rc != 0 or v.get("errors") != "0" or int(v.get("requests", "0")) == 0:
            failures.append(f"load run had errors:\n{out}")
        first, last = int(v.get("rss_kb_first_third", "-1")), int(v.get("rss_kb_last_third", "-1"))
        if first <= 0 or last <= 0:
            failures.append("no memory samples of the daemon")
        elif sanitized:
            print(f"RSS {first} kB -> {last} kB: not judged in a sanitizer build")
        elif last > first * RSS_MARGIN_RATIO + RSS_MARGIN_KB:
            failures.append(f"resident memory grew from {first} kB to {last} kB over the run")

        # Slowloris and silent clients.
        head = b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow\r\nX-Pad: " + \
            b"a" * 200
        dribblers = [connect(port) for _ in range(DRIBBLERS)]
        silent = [connect(port) for _ in range(SILENT)]
        stop = threading.Event()

        def dribble():
            i = 0
            while not stop.is_set() and i < len(head):
                for s in dribblers:
                    try:
                        s.send(head[i:i + 1])
                    except OSError:
                        pass
                i += 1
                stop.wait(0.05)

        t = threading.Thread(target=dribble)
        t.start()
        time.sleep(1)  # every slow client has sent a few bytes and holds its connection
        rc, v, out = run_load(http_load, port, 5)
        statuses = [get_status(port, r) for r in ROUTES]
        stop.set()
        t.join()
        print("during slowloris:\n" + out)
        if rc != 0 or v.get("errors") != "0" or int(v.get("requests", "0")) == 0:
            failures.append(f"requests failed while slow clients held connections:\n{out}")
        if any(s != 200 for s in statuses):
            failures.append(f"single requests during slowloris: {list(zip(ROUTES, statuses))}")
        open_slow = sum(still_open(s) for s in dribblers + silent)
        print(f"slow clients still connected after the load run: {open_slow} of "
              f"{len(dribblers) + len(silent)}")
        if open_slow < len(dribblers) + len(silent):
            failures.append(f"only {open_slow} slow clients were still connected: the load run "
                            "did not overlap the slowloris")
        for s in dribblers + silent:
            s.close()

        # Oversized and malformed requests.
        big = b"a" * 200_000
        cases = {
            "huge header": b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + big + b"\r\n\r\n",
            "huge URL": b"GET /metrics?" + big + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            "too many headers": b"GET /metrics HTTP/1.1\r\n" +
                                b"".join(b"X-%d: y\r\n" % i for i in range(1000)) + b"\r\n",
            "body on GET": b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" +
                           b"b" * 1_000_000,
            "chunked body on GET": b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
                                   b"Transfer-Encoding: chunked\r\n\r\n" +
                                   b"100000\r\n" + b"c" * 0x100000 + b"\r\n0\r\n\r\n",
        }
        for name, data in cases.items():
            status = exchange(port, data)
            print(f"{name}: {status if status else 'closed without an answer'}")
            if status is not None and not 400 <= status < 500:
                failures.append(f"{name}: answered {status}, expected 4xx or a closed connection")
            after = get_status(port, "/healthz")
            if after != 200:
                failures.append(f"after {name}: /healthz answered {after}")

        rc, v, out = run_load(http_load, port, 2)
        if rc != 0 or v.get("errors") != "0":
            failures.append(f"load run after the abuse had errors:\n{out}")
        if proc.poll() is not None:
            failures.append(f"the daemon exited ({proc.returncode})")
        else:
            proc.terminate()
            try:
                if proc.wait(timeout=120) != 0:
                    failures.append(f"the daemon exited {proc.returncode} on SIGTERM (a "
                                    "sanitizer report, in a sanitizer build)")
            except subprocess.TimeoutExpired:
                failures.append("the daemon did not stop within 120 s of SIGTERM")
        with open(log) as f:
            text = f.read()
        if "level=error" in text or "ERROR: " in text:
            failures.append("the daemon logged errors:\n" + text[-4000:])

    bed.finish(failures)


if __name__ == "__main__":
    sys.exit(main())
