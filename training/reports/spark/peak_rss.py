"""Runs a command and samples the RSS of its process tree every 0.1 s; prints the peaks (MB) of
the JVM, one Python worker, all Python workers, the driver script and the whole tree, and the
CPU time (user + system) the tree's processes used, as last seen (a process living under
0.1 s may be missed)."""
import os
import subprocess
import sys
import time


def rss_and_parent(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        with open(f"/proc/{pid}/cmdline", "rb") as cmd:
            cmdline = cmd.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    rss = int(fields.get("VmRSS", "0 kB").split()[0]) / 1024
    return rss, int(fields["PPid"]), cmdline


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def tree(root):
    processes = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = rss_and_parent(int(entry))
            if info:
                processes[int(entry)] = info
    members, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, (_, ppid, _) in processes.items():
            if ppid == parent and pid not in members:
                members.add(pid)
                frontier.append(pid)
    return {pid: processes[pid] for pid in members if pid in processes}


child = subprocess.Popen(sys.argv[1:])
peaks = {"jvm": 0.0, "one worker": 0.0, "all workers": 0.0, "driver": 0.0, "tree": 0.0}
cpu = {}  # pid -> (kind, CPU seconds last seen)
started = time.time()
while child.poll() is None:
    jvm = workers = driver = 0.0
    one = 0.0
    for pid, (rss, _, cmdline) in tree(child.pid).items():
        if pid == child.pid:
            driver, kind = rss, "driver"
        elif "java" in cmdline.split(" ")[0]:
            jvm, kind = jvm + rss, "jvm"
        else:
            workers, kind = workers + rss, "workers"
            one = max(one, rss)
        seconds = cpu_seconds(pid)
        if seconds is not None:
            cpu[pid] = (kind, seconds)
    now = {"jvm": jvm, "one worker": one, "all workers": workers, "driver": driver, "tree": jvm + workers + driver}
    peaks = {key: max(peaks[key], now[key]) for key in peaks}
    time.sleep(0.1)
print(f"exit {child.returncode}, {time.time() - started:.0f} s wall; peak RSS MB: "
      + ", ".join(f"{key} {value:.0f}" for key, value in peaks.items()), file=sys.stderr)
used = {kind: sum(seconds for k, seconds in cpu.values() if k == kind) for kind in ("jvm", "workers", "driver")}
print("CPU s: " + ", ".join(f"{kind} {seconds:.0f}" for kind, seconds in used.items())
      + f", tree {sum(used.values()):.0f}", file=sys.stderr)
