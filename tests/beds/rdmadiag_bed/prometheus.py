"""A client of Prometheus' HTTP API (VictoriaMetrics answers the same one)."""

import json
import urllib.error
import urllib.parse

from .net import http_get
from .wait import wait_until


class NotReady(RuntimeError):
    """Prometheus gave no JSON answer: its storage still starting (503), or a cut connection on a
    loaded machine. Waiting loops take it for "not yet"."""


class Prometheus:
    def __init__(self, url):
        self.url = url

    def api(self, path, params):
        """GET an HTTP API path; returns its data, or raises RuntimeError with Prometheus' own
        words when the query is refused (a 400 or 422 answer)."""
        url = f"{self.url}{path}?{urllib.parse.urlencode(params)}"
        try:
            _, body = http_get(url)
        except urllib.error.HTTPError as e:
            body = e.read().decode("utf-8", "replace")
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            raise NotReady(f"{path}: {e}") from e
        try:
            data = json.loads(body)
        except json.JSONDecodeError as e:
            raise NotReady(f"{path}: no JSON in the answer: {body[:80]!r}") from e
        if data.get("status") != "success":
            raise RuntimeError(f"{path} {params}: {data.get('error', body)}")
        return data["data"]

    def query(self, expr):
        return self.api("/api/v1/query", {"query": expr})["result"]

    def query_range(self, expr, start, end, step="1s"):
        return self.api("/api/v1/query_range",
                        {"query": expr, "start": start, "end": end, "step": step})["result"]

    def series(self, match, start, end):
        """The label sets of the series a selector matches between start and end."""
        return self.api("/api/v1/series", {"match[]": match, "start": start, "end": end})

    def alerts(self):
        _, body = http_get(f"{self.url}/api/v1/alerts")
        return json.loads(body)["data"]["alerts"]

    def wait_until(self, what, predicate, timeout=120):
        """wait_until at the pace of scrapes and rule evaluations (1 s in the beds); an answer
        Prometheus could not give yet (NotReady) counts as "not yet"."""
        def attempt():
            try:
                return predicate()
            except NotReady:
                return None
        return wait_until(what, attempt, timeout=timeout, interval=0.5)
