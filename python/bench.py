"""Pages per second of the Python package against the command line, on the same pages.

    python python/bench.py [--threads 2] [--call score|line|extract|content] [DIR]

DIR (default ``../shared/datasets/labeled`` beside the repository) is searched for ``*.html``.
``--call line`` is ``Scorer.score(nodes=False)``, the jsonl line. The Python side scores every page with the native layout from ``--threads`` threads sharing
one ``Scorer``; the command line side is ``pagelevel score --layout native --jobs N --quiet
--format jsonl`` on the same files (``target/release/pagelevel``, or ``$PAGELEVEL_BIN``). The
pages are read once before either clock starts, so both runs find them in the page cache.
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pagelevel

REPO = Path(__file__).resolve().parents[1]


def python_run(pages: list[Path], threads: int, call: str) -> tuple[float, int]:
    scorer = pagelevel.Scorer(layout="native")
    if call == "line":  # what the command line's jsonl holds: no per-node list
        score = functools.partial(scorer.score, nodes=False)
    else:
        score = getattr(scorer, call)

    def one(page: Path) -> bool:
        try:
            score(path=page)
            return True
        except pagelevel.PageError:
            return False

    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        failed = sum(not ok for ok in pool.map(one, pages))
    return time.perf_counter() - started, failed


def cli_run(pages: list[Path], jobs: int) -> float:
    binary = os.environ.get("PAGELEVEL_BIN", str(REPO / "target" / "release" / "pagelevel"))
    command = [binary, "score", "--layout", "native", "--jobs", str(jobs), "--quiet"]
    command += ["--format", "jsonl", *map(str, pages)]
    started = time.perf_counter()
    # Exit code 1: some pages failed, as in the Python run; both go on past them.
    subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "directory", nargs="?", default=REPO / ".." / "shared" / "datasets" / "labeled"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--call", choices=["score", "line", "extract", "content"], default="score")
    parser.add_argument("--rounds", type=int, default=3, help="alternate runs of each side")
    args = parser.parse_args()
    pages = sorted(Path(args.directory).rglob("*.html"))
    for page in pages:
        page.read_bytes()
    print(f"{len(pages)} pages under {args.directory}, {args.threads} threads / jobs")
    cli_times, python_times = [], []
    for _ in range(args.rounds):
        cli_times.append(cli_run(pages, args.threads))
        print(f"command line (jsonl): {len(pages) / cli_times[-1]:6.1f} pages/s")
        seconds, failed = python_run(pages, args.threads, args.call)
        python_times.append(seconds)
        print(f"python Scorer.{args.call}: {len(pages) / seconds:6.1f} pages/s ({failed} failed)")
    # The best round of each side: the one least disturbed by other work on the machine.
    cli, python = min(cli_times), min(python_times)
    print(
        f"best: command line {len(pages) / cli:.1f} pages/s, python {len(pages) / python:.1f} "
        f"pages/s = {cli / python:.0%} of the command line"
    )


if __name__ == "__main__":
    main()
