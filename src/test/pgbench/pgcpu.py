#!/usr/bin/env python3
"""PostgreSQL CPU per operation of one pgbench script, as ServiceBenchmark's Cpu counts it: utime + stime
(/proc/<pid>/stat) of the backends connected to the database, divided by the transactions (one per
operation). pgbench -t, so every backend lives the whole run; each is polled every 2 ms and its last
reading kept. Beside it: the postmaster's children's time (exact for exited backends; the shared server's
other exits included), WAL bytes / records / full-page images per operation (pg_stat_wal, a CHECKPOINT
first), and pgbench's tps. Usage:
  pgcpu.py DB SCRIPT CLIENTS PER_CLIENT [-D name=value ...] [-r]
"""
import os, re, subprocess, sys, time

PSQL = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-Atq"]


def sql(q):
    return subprocess.run(PSQL + ["-c", q], check=True, capture_output=True, text=True).stdout.strip()


def ticks(pid, children=False):
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
    except OSError:
        return None
    f = s[s.rindex(")") + 2:].split()
    return int(f[13]) + int(f[14]) if children else int(f[11]) + int(f[12])


def postmaster():
    with open("/var/lib/postgresql/15/main/postmaster.pid") as f:
        return int(f.readline())


def backends(db):
    found = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/cmdline", "rb") as f:
                    cmd = f.read().decode(errors="replace")
            except OSError:
                continue
            if re.match(rf"postgres: [^ ]+: postgres {db} ", cmd):
                found.append(int(p))
    return found


def wal():
    r = sql("SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")
    return [int(float(x)) for x in r.split("|")]


def run(db, script, clients, per, defines, per_statement=False):
    for _ in range(500):  # the previous run's backends gone, so none of them is taken for this run's
        if not backends(db):
            break
        time.sleep(0.01)
    else:
        sys.exit(f"backends still connected to {db}")
    sql("CHECKPOINT")
    pm = postmaster()
    pm0, w0 = ticks(pm, children=True), wal()
    cmd = ["pgbench", "-h", "127.0.0.1", "-U", "postgres", "-n", "-M", "prepared", "-c", str(clients),
           "-j", str(clients), "-t", str(per), "-f", script, "-D", "n=0"]
    for d in defines:
        cmd += ["-D", d]
    if per_statement:
        cmd.append("-r")
    cmd.append(db)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    last, polls = {}, 0
    while proc.poll() is None:
        # pgbench's first connection (its server check) ends before the clients connect: look again every 20 ms
        pids = set(backends(db)) | set(last) if polls % 10 == 0 else last
        for p in list(pids):
            t = ticks(p)
            if t is not None:
                last[p] = t
        polls += 1
        time.sleep(0.002)
    out, err = proc.communicate()
    time.sleep(0.5)  # the postmaster reaps the exited backends
    pm1, w1 = ticks(pm, children=True), wal()
    ops = clients * per
    done = re.search(r"number of transactions actually processed: (\d+)", out)
    if not done or int(done.group(1)) != ops or "failed" in err.lower():
        sys.exit(f"pgbench did not complete {ops} transactions:\n{out}\n{err}")
    tps = float(re.search(r"tps = ([\d.]+)", out).group(1))
    r = {"ops": ops, "pg_ms": sum(last.values()) * 10.0 / ops, "children_ms": (pm1 - pm0) * 10.0 / ops,
         "wal_bytes": (w1[2] - w0[2]) / ops, "wal_records": (w1[0] - w0[0]) / ops, "wal_fpi": (w1[1] - w0[1]) / ops,
         "tps": tps, "backends": len(last)}  # pgbench's check connection included (it used ~no CPU)
    if per_statement:
        r["statements"] = [l for l in out.splitlines() if re.match(r"\s+[\d.]+\s+\d+\s+\S", l)]
    return r


def line(name, r):
    return ("%-28s %6d ops  PG %.3f ms/op (children %.3f)  WAL %6.0f B %5.1f rec %4.2f fpi /op  %7.0f tps"
            % (name, r["ops"], r["pg_ms"], r["children_ms"], r["wal_bytes"], r["wal_records"], r["wal_fpi"], r["tps"]))


if __name__ == "__main__":
    args = sys.argv[1:]
    defines = [args[i + 1] for i, a in enumerate(args) if a == "-D"]
    pos = [a for i, a in enumerate(args) if a != "-D" and (i == 0 or args[i - 1] != "-D") and a != "-r"]
    r = run(pos[0], pos[1], int(pos[2]), int(pos[3]), defines, "-r" in args)
    print(line(os.path.basename(pos[1]), r))
    for s in r.get("statements", []):
        print("   ", s)
