#!/usr/bin/env python3
"""How late a Claude Code session log's model calls show their usage: feeds the log
to agt-parse one line at a time and notes, for each call (message id), the input line
after which its first usage event was out, against the call's first line: the delay
in lines and in the session's own time. Usage: python3 tools/live/delay.py
BIN/agt-parse SESSION.jsonl"""
import subprocess, sys, json, os, select, statistics
from datetime import datetime
exe, path = sys.argv[1], sys.argv[2]
lines = open(path, 'rb').read().split(b'\n')
lines = [l + b'\n' for l in lines if l.strip()]
p = subprocess.Popen([exe, '-q', '--provider', 'claude'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
buf = b''
first_line = {}   # message id -> first input line
ts = {}
for i, l in enumerate(lines, 1):
    try:
        r = json.loads(l)
    except Exception:
        continue
    ts[i] = r.get('timestamp')
    m = r.get('message') or {}
    if r.get('type') == 'assistant' and isinstance(m, dict) and m.get('usage') and m.get('id'):
        first_line.setdefault(m['id'], i)
emitted = {}  # message id -> input line after which its first usage event was out
def parse_ts(s):
    return datetime.fromisoformat(s.replace('Z', '+00:00')) if s else None
for i, l in enumerate(lines, 1):
    p.stdin.write(l)
    seen = False
    while not seen:
        r, _, _ = select.select([p.stdout], [], [], 0.3)
        if not r: break  # this line's events wait (a session not named yet)
        buf += os.read(p.stdout.fileno(), 1 << 20)
        *done, buf = buf.split(b'\n')
        for d in done:
            ev = json.loads(d)
            if ev.get('src', {}).get('line') == i:
                seen = True
            u = ev.get('usage')
            if ev.get('kind') == 'usage' and u and u.get('message_id') and u['message_id'] not in emitted:
                emitted[u['message_id']] = i
        if b'\n' not in buf and seen:
            break
p.stdin.close()
rest = p.stdout.read()
for d in rest.split(b'\n'):
    if d.strip():
        ev = json.loads(d); u = ev.get('usage')
        if ev.get('kind') == 'usage' and u and u.get('message_id') and u['message_id'] not in emitted:
            emitted[u['message_id']] = len(lines) + 1  # only at the end of input
p.wait()
dl, dt, at_end = [], [], 0
for mid, fl in first_line.items():
    if mid not in emitted: continue
    e = emitted[mid]
    if e > len(lines): at_end += 1; continue
    dl.append(e - fl)
    a, b = parse_ts(ts.get(fl)), parse_ts(ts.get(e))
    if a and b: dt.append((b - a).total_seconds())
dl.sort(); dt.sort()
print("%s: %d calls; delay in lines median %d max %d; in session time median %.1fs p90 %.1fs max %.1fs; %d calls only at the end of input; >5 min late: %d" % (
    os.path.basename(exe), len(first_line), statistics.median(dl), dl[-1], statistics.median(dt), dt[int(len(dt)*0.9)], dt[-1], at_end, sum(1 for x in dt if x > 300)))
