"""What Grafana sends to Prometheus for a dashboard, without Grafana: every panel's and
annotation's query, every template variable's query, and the interpolation of `$variables`,
done the way Grafana's Prometheus data source does it, so a test can run a dashboard's queries
against a real Prometheus (rdmadiag_bed.Prometheus).

Covered: query variables of the forms `label_values(SELECTOR, LABEL)` (Grafana asks
/api/v1/series) and `query_result(EXPR)` (an instant query, each series written as
`name{label="value",...} VALUE TIMESTAMP`), a variable's `regex` with the named groups `value`
and `text`, its `sort`, multi-value and All (`allValue`); `textbox` and `constant` variables; the
built-ins `$__interval`, `$__rate_interval` and `$__range`."""

import json
import math
import re

# Grafana's variable syntaxes: $name, ${name}, ${name:format}, [[name]].
VARIABLE = re.compile(r"\$(\w+)|\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]")
# What Grafana's Prometheus data source escapes in a multi-value variable's values, and how: a
# backslash for the regex, doubled for the PromQL string it is written in.
REGEX_SPECIALS = re.compile(r"([$^*{}\[\]'+?.()|])")


def regex_escape(value):
    return REGEX_SPECIALS.sub(r"\\\\\1", value.replace("\\", "\\\\\\\\"))


def load(path):
    with open(path) as f:
        return json.load(f)


def panel_queries(dashboard):
    """Every query a dashboard sends: dicts with where, expr, instant (a table or stat asking
    for one moment) and annotation."""
    out = []
    for p in dashboard.get("panels", []):
        for t in p.get("targets", []):
            out.append({"where": f"panel '{p['title']}' {t['refId']}", "panel": p["title"],
                        "refId": t["refId"], "expr": t["expr"],
                        "instant": bool(t.get("instant")), "annotation": False})
    for a in dashboard.get("annotations", {}).get("list", []):
        if "expr" in a:
            out.append({"where": f"annotation '{a['name']}'", "panel": a["name"], "refId": "",
                        "expr": a["expr"], "instant": False, "annotation": True})
    return out


def variables(dashboard):
    return dashboard.get("templating", {}).get("list", [])


def variable_query(v):
    q = v.get("query", "")
    return q.get("query", "") if isinstance(q, dict) else q


def built_ins(start, end, scrape_interval_s, max_points=300):
    """($__interval, $__rate_interval and $__range as Grafana computes them for a time range,
    the step of its range queries in seconds): the step is the range over the number of points,
    at least the scrape interval."""
    step = max(scrape_interval_s, math.ceil((end - start) / max_points))
    rate = max(step + scrape_interval_s, 4 * scrape_interval_s)
    return {"__interval": f"{step}s", "__rate_interval": f"{rate}s",
            "__range": f"{math.ceil(end - start)}s"}, step


def format_value(var, value):
    """A variable's value as Grafana puts it in a PromQL query: single values as they are;
    multi-value and include-All variables as a regex of their escaped values, All as allValue."""
    if not var or not (var.get("multi") or var.get("includeAll")):
        return value if isinstance(value, str) else value[0]
    if value == "$__all" or value == ["$__all"]:
        if "allValue" not in var:
            raise ValueError(f"variable {var['name']}: All without an allValue is not emulated")
        return var["allValue"]
    values = [value] if isinstance(value, str) else value
    escaped = [regex_escape(v) for v in values]
    return escaped[0] if len(escaped) == 1 else "(" + "|".join(escaped) + ")"


def interpolate(expr, dashboard, values):
    """Replaces every $variable Grafana knows (values: name -> value, the built-ins included);
    an unknown name is left as it is, so a test sees it in the failing query."""
    by_name = {v["name"]: v for v in variables(dashboard)}

    def sub(m):
        name = m.group(1) or m.group(2) or m.group(3)
        if name not in values:
            return m.group(0)
        return format_value(by_name.get(name), values[name])

    return VARIABLE.sub(sub, expr)


def _js_regex(text):
    """A Grafana variable regex (/.../flags, JavaScript syntax) as a Python pattern."""
    m = re.fullmatch(r"/(.*)/([a-z]*)", text, re.S)
    body, flags = (m.group(1), m.group(2)) if m else (text, "")
    body = body.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
    return re.compile(body, re.I if "i" in flags else 0)


def _sort(options, sort):
    if sort in (1, 2):
        options.sort(key=lambda o: o[1], reverse=sort == 2)
    elif sort in (3, 4):
        def number(o):
            m = re.search(r"-?\d+(\.\d+)?", o[1])
            return float(m.group(0)) if m else math.inf
        options.sort(key=number, reverse=sort == 4)
    elif sort in (5, 6):
        options.sort(key=lambda o: o[1].lower(), reverse=sort == 6)
    return options


def _query_result_text(series):
    labels = dict(series["metric"])
    name = labels.pop("__name__", "")
    inner = ",".join(f'{k}="{v}"' for k, v in labels.items())
    ts, value = series["value"]
    return f"{name}{{{inner}}} {value} {int(float(ts) * 1000)}"


def resolve_variable(prom, dashboard, var, values, start, end):
    """Runs a query variable's query with the values chosen so far. Returns (query sent,
    number of series Prometheus returned, options as (value, text) after regex and sort)."""
    query = interpolate(variable_query(var), dashboard, values)
    m = re.fullmatch(r"\s*label_values\((.*),\s*(\w+)\s*\)\s*", query, re.S)
    if m:
        series = prom.series(m.group(1), start, end)
        raw = [(s[m.group(2)], s[m.group(2)]) for s in series if m.group(2) in s]
        count = len(series)
    else:
        m = re.fullmatch(r"\s*query_result\((.*)\)\s*", query, re.S)
        if not m:
            raise ValueError(f"variable {var['name']}: unsupported query {query}")
        result = prom.query(m.group(1))
        raw = [(t, t) for t in map(_query_result_text, result)]
        count = len(result)
    options = []
    regex = var.get("regex")
    for value, text in raw:
        if regex:
            found = _js_regex(regex).search(value)
            if not found:
                continue
            groups = found.groupdict()
            if groups.get("value") or groups.get("text"):
                value = groups.get("value") or groups.get("text")
                text = groups.get("text") or value
            elif found.groups():
                value = text = found.group(1)
        if value not in [o[0] for o in options]:
            options.append((value, text))
    return query, count, _sort(options, var.get("sort", 0))


def resolve_all(prom, dashboard, choose, start, end, fixed):
    """Resolves a dashboard's variables in order, as Grafana does on load. `fixed`: values of
    the built-ins, textboxes and anything the caller sets; `choose(var, options)` picks a
    query variable's value from its options (a list for multi-value ones, "$__all" for All).
    Returns (values, [(variable, query, series count, options)])."""
    values = dict(fixed)
    report = []
    for v in variables(dashboard):
        kind = v["type"]
        if kind == "constant":
            values[v["name"]] = variable_query(v)
        elif kind == "textbox":
            values.setdefault(v["name"], variable_query(v))
        elif kind == "query":
            query, count, options = resolve_variable(prom, dashboard, v, values, start, end)
            report.append((v["name"], query, count, options))
            if v["name"] not in fixed:
                values[v["name"]] = choose(v, options)
    return values, report
