#!/usr/bin/env python3
"""Latency of a filter on a pipe: writes 300 Claude Code user lines to its stdin,
one at a time after a random pause of up to 20 ms, and times each until its text
is read on stdout; the time to first output is from the start of the process to
the first line's text on stdout. Usage: python3 tools/live/latency.py
BIN/agt-parse [ARGS...]; a pipe: python3 tools/live/latency.py sh -c
'BIN/agt-parse | BIN/agt-normalize | BIN/agt-streamlog'"""
import subprocess, time, sys, random, statistics, os, select
exe = sys.argv[1]; args = sys.argv[2:]
start = time.perf_counter()
p = subprocess.Popen([exe]+args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
lat=[]
def line(i): return ('{"type":"user","sessionId":"s1","uuid":"u%d","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"line-%d-end"}}\n' % (i,i)).encode()
buf=b''
def await_(i):
    global buf
    mark=('line-%d-end' % i).encode()
    while mark not in buf:
        r,_,_=select.select([p.stdout],[],[],30)
        if not r: raise SystemExit("hang at %d" % i)
        buf += os.read(p.stdout.fileno(), 65536)
    t=time.perf_counter(); buf=b''; return t
p.stdin.write(line(0)); first = await_(0) - start
random.seed(1)
for i in range(1,301):
    time.sleep(random.random()*0.02)
    t0=time.perf_counter(); p.stdin.write(line(i)); lat.append(await_(i)-t0)
p.stdin.close(); p.wait()
lat.sort()
print("%s median %.3f ms p99 %.3f ms max %.3f ms first output %.1f ms" % (os.path.basename(exe)+" "+" ".join(args), lat[len(lat)//2]*1e3, lat[int(len(lat)*0.99)]*1e3, lat[-1]*1e3, first*1e3))
