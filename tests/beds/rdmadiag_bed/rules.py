"""The alert rules of deploy/alerts/, read without a YAML library: the file's layout is ours
(expr: | blocks)."""

import re


def rule_expressions(path):
    """(alert name, expr, for) of every rule in a rules file."""
    rules, cur, block = [], None, None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s+- alert: (\S+)", line)
            if m:
                cur = {"alert": m.group(1), "expr": "", "for": None}
                rules.append(cur)
                block = None
                continue
            if cur is None:
                continue
            m = re.match(r"(\s+)expr: \|\s*$", line)
            if m:
                block = len(m.group(1))
                continue
            m = re.match(r"\s+expr: (.+)$", line)
            if m:
                cur["expr"] = m.group(1).strip()
                block = None
                continue
            if block is not None:
                if line.strip() and (len(line) - len(line.lstrip())) > block:
                    cur["expr"] += line.strip() + "\n"
                    continue
                block = None
            m = re.match(r"\s+for: (\S+)", line)
            if m:
                cur["for"] = m.group(1)
    return rules
