#!/usr/bin/env python3
"""Writes the first K SQL commands of a pgbench script (its \\set lines kept, BEGIN/COMMIT not counted as
statements; an open transaction committed), so a run of prefix K minus a run of prefix K-1 is what
statement K adds, its share of the commit included. Usage: prefix.py SCRIPT K OUT; prefix.py SCRIPT
prints the statements' first lines, numbered."""
import sys


def commands(path):
    meta, cmds, cur = [], [], []
    for line in open(path):
        s = line.rstrip("\n")
        if not cur and (s.startswith("--") or not s.strip()):
            continue
        if not cur and s.startswith("\\"):
            meta.append(s)
            continue
        cur.append(s)
        if s.rstrip().endswith(";") or "\\gset" in s:
            cmds.append("\n".join(cur))
            cur = []
    return meta, cmds


def is_tx(c):
    return c.strip().rstrip(";").upper() in ("BEGIN", "COMMIT")


if __name__ == "__main__":
    meta, cmds = commands(sys.argv[1])
    if len(sys.argv) == 2:
        k = 0
        for c in cmds:
            if not is_tx(c):
                k += 1
                print(k, c.splitlines()[0][:90])
        sys.exit()
    k, out, taken, open_tx = int(sys.argv[2]), [], 0, False
    for c in cmds:
        if taken == k and (not is_tx(c) or c.strip().upper().startswith("BEGIN")):
            break
        if not is_tx(c):
            taken += 1
        out.append(c)
        open_tx = c.strip().upper().startswith("BEGIN") or (open_tx and not c.strip().upper().startswith("COMMIT"))
    if open_tx:
        out.append("COMMIT;")
    open(sys.argv[3], "w").write("\n".join(meta + out) + "\n")
