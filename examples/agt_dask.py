#!/usr/bin/env python3
"""agt_dask.py: a batch conversion on a Dask distributed cluster.

    python3 examples/agt_dask.py UNITS.tsv [--scheduler tcp://HOST:PORT]
        [--workers N] [--agt PATH] [-o DIR] [agt-transcript options]

UNITS.tsv holds one shard a line: input units (paths every worker can read;
a file, or a folder such as a Claude Code project), the units of one session
tab-separated on one line. Each shard is one task: `agt-transcript` on its
units, on a worker; its diagnostics (PATH:LINE: why) are written on stderr
after the shard's output. Without -o the transcripts are written on stdout, shard
after shard in the order of UNITS.tsv: the bytes one agt-transcript run over
all the units writes. With -o DIR each task writes its own folder
(DIR/.shards/NNNNNN) and the folders are merged into DIR as the README's
merge step does (files copied, indexes joined unit by unit), then removed.

Without --scheduler a LocalCluster of --workers worker processes (default:
one a core) is started on 127.0.0.1 and stopped at the end. The workers run
`agt-transcript` (or --agt PATH) from their PATH. Other options are passed
on to agt-transcript (--format otlp, --model M, ...).

A shard that fails (agt-transcript exits non-zero) is named on stderr with
its units and agt-transcript's own message; the other shards' output is
still written, in order, and the run exits 1: never a silent gap. A worker
that dies mid-task has its task run again elsewhere (the scheduler's own
retry).
"""

import json
import logging
import os
import shutil
import subprocess
import sys


def usage(msg):
    sys.stderr.write("agt_dask.py: %s\n" % msg)
    sys.stderr.write("usage: python3 examples/agt_dask.py UNITS.tsv [--scheduler URL] "
                     "[--workers N] [--agt PATH] [-o DIR] [agt-transcript options]\n")
    sys.exit(2)


def parse_args(argv):
    opts = {"scheduler": None, "workers": None, "agt": "agt-transcript", "out": None}
    rest, units = [], None
    takes = {"--scheduler": "scheduler", "--workers": "workers", "--agt": "agt", "-o": "out", "--out": "out"}
    i = 0
    while i < len(argv):
        a = argv[i]
        key, _, val = a.partition("=")
        if key in takes:
            if not val:
                i += 1
                if i >= len(argv):
                    usage("flag needs an argument: " + key)
                val = argv[i]
            opts[takes[key]] = val
        elif units is None and not a.startswith("-"):
            units = a
        else:
            rest.append(a)
        i += 1
    if units is None:
        usage("no units file")
    if opts["workers"] is not None:
        try:
            opts["workers"] = int(opts["workers"])
        except ValueError:
            usage("--workers takes a number")
        if opts["workers"] < 1:
            usage("--workers takes a number of at least 1")
    return units, opts, rest


def read_units(path):
    shards = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            shards.append((n, [u for u in line.split("\t") if u]))
    return shards


def convert(agt, args, units, out_dir):
    """One shard: agt-transcript on its units. Runs on a worker."""
    crash = os.environ.get("AGT_DASK_CRASH_ONCE")
    if crash and units and units[0] == os.environ.get("AGT_DASK_CRASH_UNIT"):
        # test hook: the first attempt of this shard kills its worker
        try:
            fd = os.open(crash, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.close(fd)
            os._exit(1)
        except FileExistsError:
            pass
    cmd = [agt] + list(args)
    if out_dir is not None:
        cmd += ["-o", out_dir]
    cmd += ["--"] + list(units)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def merge(out, shard_dirs):
    """Merges the shards' -o folders into out: files copied (their names
    never meet: a session is in one shard), indexes joined unit by unit."""
    os.makedirs(out, exist_ok=True)
    index = None
    for d in shard_dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            src = os.path.join(d, name)
            if name == ".agt-index.json":
                with open(src, encoding="utf-8") as f:
                    part = json.load(f)
                if index is None:
                    index = {"schema": part.get("schema"), "units": {}}
                index["units"].update(part.get("units") or {})
                continue
            dst = os.path.join(out, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst, dirs_exist_ok=True)
            else:
                shutil.copy2(src, dst)
    if index is not None:
        index["units"] = dict(sorted(index["units"].items()))
        with open(os.path.join(out, ".agt-index.json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(index, separators=(",", ":"), ensure_ascii=False) + "\n")


def main(argv):
    units_file, opts, args = parse_args(argv)
    try:
        shards = read_units(units_file)
    except OSError as e:
        sys.stderr.write("agt_dask.py: %s: %s\n" % (units_file, e.strerror))
        return 1
    if not shards:
        sys.stderr.write("agt_dask.py: %s: no units\n" % units_file)
        return 1
    from distributed import Client, LocalCluster

    cluster = None
    if opts["scheduler"]:
        client = Client(opts["scheduler"])
    else:
        cluster = LocalCluster(n_workers=opts["workers"] or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, host="127.0.0.1", dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster)
    shard_root = None
    if opts["out"]:
        shard_root = os.path.join(opts["out"], ".shards")
        os.makedirs(shard_root, exist_ok=True)
    failed = 0
    try:
        futures = []
        for i, (_, units) in enumerate(shards):
            d = os.path.join(shard_root, "%06d" % i) if shard_root else None
            futures.append(client.submit(convert, opts["agt"], args, units, d, key="agt-shard-%06d" % i, pure=False))
        out = sys.stdout.buffer
        for (line, units), fut in zip(shards, futures):
            try:
                code, stdout, stderr = fut.result()
            except Exception as e:  # the task itself failed (its worker, the cluster)
                code, stdout, stderr = -1, b"", "%s: %s" % (type(e).__name__, e)
            out.write(stdout)
            out.flush()
            sys.stderr.write(stderr)
            if code != 0:
                failed += 1
                sys.stderr.write("agt_dask.py: %s:%d: shard failed (exit %d): %s\n" % (units_file, line, code, "\t".join(units)))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if shard_root:
        merge(opts["out"], [os.path.join(shard_root, "%06d" % i) for i in range(len(shards))])
        shutil.rmtree(shard_root, ignore_errors=True)
    if failed:
        sys.stderr.write("agt_dask.py: %d of %d shards failed\n" % (failed, len(shards)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
