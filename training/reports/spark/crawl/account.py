"""Counts what became of every record of a crawl made by make_crawl.py, from a job's output.

    python account.py score CRAWL_DIR PARQUET_DIR [FILE_NAME...]
    python account.py label CRAWL_DIR ROWS_DIR JOB_LOG [--max-pages 200] [--seed 7]

score: every response the job reads as a page (HTML, or a head it cannot read) must be exactly
one row, scored or with its error; non-HTML responses are no row by design.
label: every HTML 200 response is either labelled (rows with its URL), outside its host's
sample (by design: a host is labelled from at most --max-pages pages), on a host the job lists
as skipped, or a sampled page the job lists; anything else is lost.
"""

from __future__ import annotations

import csv
import glob
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

NO_ROW_BY_DESIGN = {"non-html"}  # not a page: the jobs read HTML responses only
NOT_A_TRAINING_PAGE = {"non-html", "bad-http-header"}  # label_hosts: HTML 200 responses only


def records(crawl: Path, files=None):
    """make_crawl.py's listing of every record; only those of `files` (names) when given."""
    with open(crawl / "records.tsv", newline="") as stream:
        for record in csv.DictReader(stream, delimiter="\t"):
            if files is None or record["file"] in files:
                yield record


def error_class(error: str) -> str:
    for marker, name in [("empty", "empty page"), ("binary", "binary body"), ("over the limit", "over 16 MiB"),
                         ("malformed HTTP", "malformed HTTP head"), ("cannot read", "unreadable file")]:
        if marker in error:
            return name
    return error[:60]


def score(crawl: Path, output: Path, files=None) -> dict:
    import pyarrow.parquet as parquet

    table = parquet.read_table(output, columns=["url", "error"]).to_pylist()
    rows = Counter(row["url"] for row in table)
    expected = [record for record in records(crawl, files) if record["kind"] not in NO_ROW_BY_DESIGN]
    wanted = Counter(record["url"] for record in expected)  # a crawl may hold a URL twice
    lost = [url for url, count in wanted.items() for _ in range(count - min(count, rows[url]))]
    extra = sum(count - min(count, wanted[url]) for url, count in rows.items())
    kinds = Counter(record["kind"] for record in records(crawl, files))
    errors = Counter(error_class(row["error"]) for row in table if row["error"])
    by_kind = defaultdict(Counter)
    errored = {row["url"]: row["error"] for row in table if row["error"]}
    for record in expected:
        outcome = "lost" if rows[record["url"]] == 0 else "error row" if record["url"] in errored else "scored row"
        by_kind[record["kind"]][outcome] += 1
    return {
        "records": sum(kinds.values()),
        "no_row_by_design": {kind: kinds[kind] for kind in NO_ROW_BY_DESIGN},
        "expected_rows": len(expected),
        "rows": len(table),
        "error_rows": dict(errors),
        "rows_by_kind": {kind: dict(counts) for kind, counts in sorted(by_kind.items())},
        "lost": len(lost),
        "lost_examples": lost[:5],
        "rows_not_expected": extra,
    }


def job_warnings(log: Path, output: Path):
    """(hosts, pages, files) the job skipped, each name -> reason: from OUTPUT/_skipped/ when
    the job wrote it, else from the warnings in its log (before it did)."""
    hosts, pages, files = {}, {}, {}
    listing = sorted(glob.glob(str(output / "_skipped" / "part-*.csv")))
    for part in listing:
        with open(part, newline="") as stream:
            for row in csv.DictReader(stream):
                {"host": hosts, "page": pages, "file": files}[row["kind"]][row["name"]] = row["reason"]
    if listing:
        return hosts, pages, files
    for line in open(log, errors="replace"):
        for prefix, into in [("pagelevel: warning: skipped host ", hosts), ("pagelevel: warning: skipped page ", pages),
                             ("pagelevel: warning: read only part of ", files)]:
            if line.startswith(prefix):
                name, _, reason = line[len(prefix):].rstrip("\n").partition(": ")
                into[name] = reason
    return hosts, pages, files


def label(crawl: Path, output: Path, log: Path, max_pages: int, seed: int) -> dict:
    import pagelevel

    labelled = set()
    for part in glob.glob(str(output / "part-*.csv")):
        with open(part, newline="") as stream:
            reader = csv.reader(stream)
            page = next(reader).index("page")
            labelled.update(row[page] for row in reader)
    skipped_hosts, skipped_pages, damaged = job_warnings(log, output)
    by_host = defaultdict(list)
    kinds = Counter()
    for record in records(crawl):
        kinds[record["kind"]] += 1
        if record["kind"] not in NOT_A_TRAINING_PAGE:
            by_host[record["host"]].append((record["file"], int(record["record"]), record["url"], record["kind"]))
    fate = Counter()
    fate_by_kind = defaultdict(Counter)
    lost = []
    host_reasons = Counter()
    for host, pages in by_host.items():
        pages.sort()
        if host in skipped_hosts:
            fate["host skipped (listed)"] += len(pages)
            host_reasons[re.sub(r"^site \S+: only \d+", "only N", skipped_hosts[host])] += 1
            for page in pages:
                fate_by_kind[page[3]]["host skipped"] += 1
            continue
        sample = set(pagelevel.host_sample(len(pages), host=host, max_pages=max_pages, seed=seed))
        for position, (_, _, url, kind) in enumerate(pages):
            if position not in sample:
                outcome = "not in the host's sample (by design)"
            elif url in labelled:
                outcome = "labelled"
            elif url in skipped_pages:
                outcome = "sampled, no rows (listed)"
            else:
                outcome = "lost"
                lost.append(url)
            fate[outcome] += 1
            fate_by_kind[kind][outcome] += 1
    return {
        "records": sum(kinds.values()),
        "not_training_pages_by_design": {kind: kinds[kind] for kind in NOT_A_TRAINING_PAGE},
        "html_200_pages": sum(len(pages) for pages in by_host.values()),
        "hosts": len(by_host),
        "hosts_skipped": len(skipped_hosts),
        "host_skip_reasons": dict(host_reasons.most_common(5)),
        "pages": dict(fate),
        "broken_records": {kind: dict(counts) for kind, counts in sorted(fate_by_kind.items()) if kind != "page"},
        "files_read_in_part": len(damaged),
        "labelled_urls_in_rows": len(labelled),
        "lost": len(lost),
        "lost_examples": lost[:5],
    }


def main(argv):
    job, crawl, output = argv[0], Path(argv[1]), Path(argv[2])
    if job == "score":  # optionally: the names of the crawl's files the job read
        result = score(crawl, output, set(argv[3:]) or None)
    else:
        options = dict(zip(argv[4::2], argv[5::2]))
        result = label(crawl, output, Path(argv[3]), int(options.get("--max-pages", 200)),
                       int(options.get("--seed", 7)))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
