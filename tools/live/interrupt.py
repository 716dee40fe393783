#!/usr/bin/env python3
"""Ctrl-C on a terminal: runs a filter reading a pseudo-terminal, writes a line,
sends SIGINT, and prints the exit code, how long the exit took, and the events
written. Usage: python3 tools/live/interrupt.py BIN/agt-parse"""
import os, pty, time, signal, sys
exe=sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execv(exe, [exe, "-"])
time.sleep(0.5)
os.write(fd, b'{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}\n')
time.sleep(0.5)
t0=time.time(); os.kill(pid, signal.SIGINT)
_, st = os.waitpid(pid, 0)
print("exit", os.waitstatus_to_exitcode(st), "after %.3f s" % (time.time()-t0))
out=b''
try:
    while True:
        b=os.read(fd, 65536)
        if not b: break
        out+=b
except OSError: pass
print(out.count(b'"kind":"user"'), "user events in output")
