"""The test beds' one library, used by every Python test:

  outcome     PASS, FAIL or SKIP (77) with the reason; programs a test needs
  wait        wait_until: a condition with a deadline that only bounds a hung test
  trees       temporary folders, unique per run, removed afterwards
  net         free loopback ports, HTTP GETs of the daemon's pages
  exposition  the Prometheus text format read back (Scrape), a daemon's /metrics
  bed         Bed: `rdmadiag serve`, Prometheus and VictoriaMetrics started and torn down
  prometheus  Prometheus' query API
  rules       the alert rules' expressions
  checks      what every fault test checks of a daemon through a fault
  grafana_queries  a dashboard's queries as Grafana sends them

CTest puts tests/beds on PYTHONPATH (rdmadiag_python_test); by hand:
PYTHONPATH=tests/beds python3 tests/.../some_test.py ARGS."""

from .bed import Bed
from .checks import Checks, daemon_alive, findings
from .exposition import Scrape, scrape
from .net import free_port, get_json, http_get
from .outcome import SKIP, finish, require_exporter, require_program, skip
from .prometheus import Prometheus
from .rules import rule_expressions
from .trees import make_tree, remove_tree, temp_tree
from .wait import wait_until

__all__ = ["Bed", "Checks", "Prometheus", "SKIP", "Scrape", "daemon_alive", "findings", "finish",
           "free_port", "get_json", "http_get", "make_tree", "remove_tree", "require_exporter",
           "require_program", "rule_expressions", "scrape", "skip", "temp_tree", "wait_until"]
