#!/usr/bin/env python3
"""The values table of docs/deploy.md, held to helm/ossgw/values.yaml.

  values_table.py print   prints the table (key, default, description from the "# --" comment above the key)
  values_table.py check   fails (exit 1) unless docs/deploy.md's table lists exactly the keys of values.yaml with the
                          same defaults; prints what differs

Leaves are scalars, lists, empty maps and the maps in OPAQUE (shown as one row). Defaults are compared as the JSON
of the YAML value, so `{}`, `[]`, `""` and `false` must be written as they are in values.yaml.
"""
import json
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[3]
VALUES = ROOT / "helm/ossgw/values.yaml"
DOC = ROOT / "docs/deploy.md"
OPAQUE = {"resources"}
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`(.*?)`\s*\|(.*)\|\s*$")


def leaves(node, prefix=""):
    for k, v in node.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v and key not in OPAQUE:
            yield from leaves(v, key + ".")
        else:
            yield key, v


def descriptions(text):
    """Maps dotted keys to the "# --" comment lines right above them (helm-docs convention)."""
    out, stack, pending = {}, [], []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("# --"):
            pending = [stripped[4:].strip()]
            continue
        if stripped.startswith("#") and pending:
            pending.append(stripped[1:].strip())
            continue
        m = re.match(r"^(\s*)([A-Za-z0-9_]+):", line)
        if not m:
            pending = []
            continue
        depth = len(m.group(1)) // 2
        stack = stack[:depth] + [m.group(2)]
        if pending:
            out[".".join(stack)] = " ".join(pending)
        pending = []
    return out


def render(value):
    return json.dumps(value, separators=(", ", ": "))


def table():
    text = VALUES.read_text()
    desc = descriptions(text)
    rows = ["| Key | Default | Description |", "|---|---|---|"]
    for key, v in leaves(yaml.safe_load(text)):
        rows.append(f"| `{key}` | `{render(v)}` | {desc.get(key, '').replace('|', '/')} |")
    return "\n".join(rows)


def check():
    want = {k: render(v) for k, v in leaves(yaml.safe_load(VALUES.read_text()))}
    have = {}
    in_values = False
    for line in DOC.read_text().splitlines():
        if line.startswith("#"):  # only the rows under the "### Values" heading, up to the next heading
            in_values = line.strip() == "### Values"
            continue
        m = ROW.match(line)
        if in_values and m:
            have[m.group(1)] = m.group(2)
    problems = [f"missing in docs/deploy.md: `{k}` (default `{v}`)" for k, v in want.items() if k not in have]
    problems += [f"not in values.yaml: `{k}`" for k in have if k not in want]
    problems += [f"default of `{k}`: docs say `{have[k]}`, values.yaml has `{want[k]}`"
                 for k in want if k in have and have[k] != want[k]]
    for p in problems:
        print("values-table:", p)
    print(f"values-table: {len(want)} keys, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["print"]:
        print(table())
    elif sys.argv[1:] == ["check"]:
        sys.exit(check())
    else:
        sys.exit(__doc__)
