#!/usr/bin/env python3
"""The largest units of a `cargo build --timings` run, and how busy the job slots were.

Usage: top_units.py target/cargo-timings/cargo-timing.html [N]

Durations are wall seconds of each rustc process as Cargo saw them (front end = until the
crate's metadata was written, code generation = the rest); under load they are longer than
the CPU the unit used, so compare shares, not seconds, across machines.
"""
import json
import sys
from collections import Counter, defaultdict


def constant(html, name):
    start = html.index(f"const {name} = ") + len(f"const {name} = ")
    value, _ = json.JSONDecoder().raw_decode(html[start:])
    return value


def main():
    html = open(sys.argv[1], encoding="utf-8").read()
    top_n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    units = constant(html, "UNIT_DATA")
    total = sum(u["duration"] for u in units)
    end = max(u["start"] + u["duration"] for u in units)
    print(f"{len(units)} units, {total:.1f} s of unit time, build ends at {end:.1f} s")
    print(f"{'unit':28} {'start':>7} {'duration':>8} {'front end':>9} {'codegen':>8} {'share':>6}")
    for u in sorted(units, key=lambda u: -u["duration"])[:top_n]:
        sections = dict(u["sections"] or [])
        front = sections.get("frontend", {}).get("end")
        codegen = u["duration"] - front if front is not None else None
        label = f"{u['name']}{u['target']}"
        print(
            f"{label:28} {u['start']:7.1f} {u['duration']:8.1f} "
            f"{front if front is not None else float('nan'):9.1f} "
            f"{codegen if codegen is not None else float('nan'):8.1f} "
            f"{100 * u['duration'] / total:5.1f}%"
        )
    # The same crate built twice: usually a copy for the host (build scripts, proc macros).
    copies = defaultdict(list)
    for u in units:
        copies[(u["name"], u["version"], u["target"])].append(u["duration"])
    extra = sum(sum(d) - max(d) for d in copies.values() if len(d) > 1)
    print(f"second copies of crates built twice: {extra:.1f} s of unit time")
    active = Counter()
    samples = constant(html, "CONCURRENCY_DATA")
    for here, after in zip(samples, samples[1:]):
        active[here["active"]] += after["t"] - here["t"]
    print("seconds with n units running:", {n: round(s, 1) for n, s in sorted(active.items())})


if __name__ == "__main__":
    main()
