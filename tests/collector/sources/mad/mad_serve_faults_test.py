#!/usr/bin/env python3
"""`rdmadiag serve` with the subnet-wide MAD source on the ibsim + opensm bed, through one fault of
the simulated subnet. Run by CTest under tests/beds/ibsim/with-bed (BED_DIR, IBSIM_SOCKNAME,
RDMADIAG_BED_CTL). Arguments: RDMADIAG SOURCE_DIR FAULT, FAULT one of

  pause    ibsim stops answering (SIGSTOP), then answers again (SIGCONT)
  restart  ibsim and opensm are killed and started again
  sm-stop  opensm ends: no SA and no SM, the switches and ports stay

Whatever the fault, the daemon keeps serving /metrics on loopback, says what is wrong (source `up`,
the errors it logs), keeps every device, P_Key table and counter it had, and its counter totals
never go down between scrapes taken before, during and after the fault."""

import json
import os
import re
import subprocess
import sys
import time

import rdmadiag_bed

UMAD2SIM = os.environ.get("UMAD2SIM", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so")
PORTS = 16 + 2 * 13  # 8 dual-port HCAs, 2 switches with 12 ports + port 0
class Daemon:
    def __init__(self, bed, rdmadiag):
        help_text = subprocess.run([rdmadiag, "serve", "--help"], capture_output=True,
                                   text=True).stdout
        others = sorted(set(re.findall(r"--no-source\.(\w+)", help_text)) - {"mad"})
        args = ["--source.mad"] + [f"--no-source.{s}" for s in others] + [
            "--interval.pkeys=1s", "--interval.counters=1s", "--log.level=debug",
            "--source.opt", "mad.scope=subnet", "--source.opt", "mad.sm_key=0x1",
            "--source.opt", "mad.timeout=100ms", "--source.opt", "mad.retries=1",
            # Rediscover on every pass, so each fault meets discovery as well as the reads.
            "--source.opt", "mad.discovery_interval=1s"]
        os.environ["LD_PRELOAD"] = UMAD2SIM
        try:
            self.proc, port, self.log = bed.start_daemon(rdmadiag, args, name="mad-serve")
        finally:
            del os.environ["LD_PRELOAD"]
        self.url = f"http://127.0.0.1:{port}"

    def metrics(self):
        status, body = rdmadiag_bed.http_get(self.url + "/metrics")
        assert status == 200, status
        assert self.proc.poll() is None, "the daemon exited"
        return rdmadiag_bed.Scrape(body)

    def snapshot(self):
        status, body = rdmadiag_bed.http_get(self.url + "/api/v1/snapshot")
        assert status == 200, status
        return json.loads(body)

    def mad_status(self):
        for s in self.snapshot()["sources"]:
            if s["name"] == "mad":
                return s
        raise AssertionError("no mad source in the snapshot")

    def polls(self):
        return self.metrics().one("rdmadiag_source_polls_total", source="mad")

    def wait(self, what, predicate, timeout=90):
        try:
            return rdmadiag_bed.wait_until(what, predicate, timeout=timeout, interval=0.25)
        except AssertionError as e:
            with open(self.log) as f:
                raise AssertionError(f"{e}\n{f.read()[-3000:]}") from None

    def wait_polls(self, n):
        """Waits until the collector has run the source n more times: n sweeps are behind us."""
        start = self.polls()
        self.wait(f"{n} more polls of mad", lambda: self.polls() >= start + n)


def bed_ctl(*args):
    subprocess.run([os.environ["RDMADIAG_BED_CTL"], *args], check=True)


def steady(d):
    """Every port read, with its sma table; returns the metrics."""
    def ready():
        m = d.metrics()
        if m.one("rdmadiag_source_up", source="mad") != 1:
            return None
        if len(m.series("rdmadiag_pkey_table_changes_total", view="sma")) != PORTS:
            return None
        return m
    d.wait("every port's sma table", ready)
    d.wait_polls(2)
    return d.metrics()


def check_kept(before, now, when):
    """Everything `before` had is still there: devices and ports present, tables at their
    change count, counters at least where they were."""
    have = now.samples
    for name in ("rdmadiag_port_present", "rdmadiag_device_present"):
        for key, v in before.series(name).items():
            assert key in have, f"{when}: {key} is gone"
            assert have[key] == v, f"{when}: {key} went from {v} to {have[key]}"
    for key, v in before.series("rdmadiag_pkey_table_changes_total").items():
        assert key in have, f"{when}: {key} is gone"
        assert have[key] == v, f"{when}: {key} changed from {v} to {have[key]}: an outage is " \
                               "not a table change"
    totals = before.series("rdmadiag_port_stat_total")
    assert totals, "no counters before the fault"
    for key, v in totals.items():
        assert key in have, f"{when}: counter {key} is gone"
        assert have[key] >= v, f"{when}: counter {key} went down from {v} to {have[key]}"
    # The source's own counters are counters too.
    for name in ("rdmadiag_source_polls_total", "rdmadiag_source_observations_total",
                 "rdmadiag_source_errors_total"):
        assert now.one(name, source="mad") >= before.one(name, source="mad"), name


def sweep_errors(d, since):
    return [e for e in d.snapshot()["errors"]
            if e.get("source") == "mad" and e.get("subject") == "mad sweep" and e["time"] >= since]


def utc_now():
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())


def pause(d):
    before = steady(d)
    t0 = utc_now()
    bed_ctl("pause-fabric")
    try:
        d.wait("the source to go down", lambda: d.metrics().one("rdmadiag_source_up",
                                                                source="mad") == 0)
        during = d.metrics()
        status = d.mad_status()
        assert not status["up"] and status["reason"], status
        errors = sweep_errors(d, t0)
        assert errors, "no sweep-wide error while nothing answered"
        assert during.one("rdmadiag_source_errors_total", source="mad") > \
            before.one("rdmadiag_source_errors_total", source="mad")
        check_kept(before, during, "while ibsim does not answer")
        d.wait_polls(2)  # a few more failed sweeps take nothing away either
        check_kept(before, d.metrics(), "after more failed sweeps")
        print(f"during the pause: up=0, reason {status['reason']!r}; {errors[0]['message']!r}")
    finally:
        bed_ctl("resume-fabric")
    d.wait("the source to come back", lambda: d.metrics().one("rdmadiag_source_up",
                                                              source="mad") == 1)
    d.wait_polls(2)
    after = d.metrics()
    check_kept(during, after, "after ibsim answers again")
    check_kept(before, after, "after ibsim answers again")
    assert after.one("rdmadiag_source_last_observation_timestamp_seconds", source="mad") > \
        during.one("rdmadiag_source_last_observation_timestamp_seconds", source="mad")


def restart(d):
    before = steady(d)
    t0 = utc_now()
    bed_ctl("restart-fabric")
    d.wait("the source to see the restart", lambda: d.metrics().one("rdmadiag_source_up",
                                                                    source="mad") == 0)
    during = d.metrics()
    status = d.mad_status()
    assert not status["up"] and status["reason"], status
    assert sweep_errors(d, t0), "no sweep-wide error after the fabric went away"
    check_kept(before, during, "after ibsim was killed")
    d.wait_polls(3)
    later = d.metrics()
    check_kept(before, later, "while the fabric is back but this process's umad2sim client is not")
    # umad2sim attaches a process to ibsim once, when it first opens a umad device; a new ibsim does
    # not know that client. So the source stays down here and says so, keeping what it had; with a
    # kernel umad device the port is opened again and the next sweep reads the subnet.
    recovered = later.one("rdmadiag_source_up", source="mad") == 1
    print(f"after the restart: up={int(recovered)}, reason {d.mad_status()['reason']!r}")


def sm_stop(d):
    before = steady(d)
    sm_before = before.series("rdmadiag_pkey_table_changes_total", view="sm")
    assert sm_before, "no sm view before opensm stopped"
    t0 = utc_now()
    bed_ctl("stop-sm")
    d.wait("a sweep that fell back to directed route",
           lambda: any("directed route" in e["message"] for e in sweep_errors(d, t0)))
    d.wait_polls(2)
    during = d.metrics()
    assert during.one("rdmadiag_source_up", source="mad") == 1, "the walk found the nodes"
    assert d.mad_status()["up"]
    check_kept(before, during, "without opensm")
    # Every port was read again, by directed route.
    assert len(during.series("rdmadiag_port_present")) == PORTS
    for key in sm_before:
        assert key in during.samples, f"the SM's last known table {key} was dropped"
    print("without opensm: " + next(e["message"] for e in sweep_errors(d, t0)
                                     if "directed route" in e["message"]))


def main():
    if len(sys.argv) != 4:
        print("usage: mad_serve_faults_test.py RDMADIAG SOURCE_DIR pause|restart|sm-stop")
        return 2
    rdmadiag, _, fault = sys.argv[1:]
    if "BED_DIR" not in os.environ:
        rdmadiag_bed.skip("no ibsim bed (run through ctest: tests/beds/ibsim/with-bed)")
    faults = {"pause": pause, "restart": restart, "sm-stop": sm_stop}
    with rdmadiag_bed.Bed(f"mad-{fault}") as bed:
        d = Daemon(bed, rdmadiag)
        try:
            faults[fault](d)
            assert d.proc.poll() is None, "the daemon exited"
        except BaseException:
            with open(d.log) as f:
                lines = [l for l in f if "ibwarn" not in l]
            print("daemon log (last lines):\n" + "".join(lines[-30:]), file=sys.stderr)
            print(f"daemon exit status: {d.proc.poll()}", file=sys.stderr)
            raise
    print(f"ok: {fault}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
