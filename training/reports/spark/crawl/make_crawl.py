"""A synthetic crawl of N pages in WARC files, from the shared saved sites and labelled pages.

    python make_crawl.py /work/shared/datasets N OUT_DIR [--seed 24] [--per-file 2500]

Hosts: 30 % of the pages go to three very large hosts (15 %, 10 % and 5 % of N: 30,000, 20,000
and 10,000 pages at N = 200,000), the rest to small hosts of 5–200 pages (log-uniform), each
built from one group of shared pages (a saved site, a labelled site, or a labelled set's
unrelated pages) under a rewritten URL (https://<group>-<k>.example/<i>/<name>). A host cycles
through its group's pages, so a host larger than its group repeats pages under new URLs.
Three in four small hosts come from the saved sites (documentation, forums, blogs), one in
four from the labelled pages (news, wcxb-dev's mixed page types).

The pages are shuffled (seeded) and written to files of --per-file pages: WARC/1.0 response
records, one gzip member each, with HTTP headers. Every file gets one broken record of each kind
(bad HTTP header, non-HTML content type, binary body served as HTML, empty body, huge body of
20 MiB of HTML) at seeded positions, each on the host of the page it precedes (two kinds drawn
at one position: one of them), and every fifth file and the last end with a truncated gzip
member (the last record cut in the middle, as an interrupted write leaves it).

Writes OUT_DIR/crawl-NNNNN.warc.gz, OUT_DIR/manifest.json (counts) and OUT_DIR/records.tsv
(file, record, url, host, kind: what every record is, for counting the rows that come out), and
prints the manifest. Same seed and N, same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import uuid
import zlib
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

LABELLED_GROUPS = {  # pattern under labeled/ -> how its pages group into sites
    "big9/*/html/*.html": 1,  # by the folder one level up: one site per news site
    "cleanportaleval/*/input/*.html": 1,
    "l3s-gn1/original/*.html": None,  # one group: unrelated pages of many sites
    "cleaneval/input/*.html": None,
    "dragnet/HTML/*.html": None,
    "kreuzer/*/index.blocks.html": None,
    "readability/pages/*.html": None,
    "wcxb-dev/html/*.html.gz": None,
}
BIG_HOSTS = [("docs", "sites/python3-docs-sphinx", 0.15), ("forum", "sites/opendcl-forum-archive", 0.10),
             ("news", "labeled/big9", 0.05)]
BROKEN_KINDS = ["bad-http-header", "non-html", "binary-body", "empty-body", "huge-body"]
HUGE_BYTES = 20 * 1024 * 1024


def page_groups(datasets: Path) -> Dict[str, List[Path]]:
    """Group name -> its page files, sorted."""
    groups: Dict[str, List[Path]] = {}
    for site in sorted((datasets / "sites").iterdir()):
        if site.is_dir():
            pages = sorted(p for p in site.rglob("*") if p.suffix.lower() in (".html", ".htm") and p.is_file())
            groups[f"sites/{site.name}"] = pages
    labelled = datasets / "labeled"
    for pattern, level in LABELLED_GROUPS.items():
        for page in sorted(labelled.glob(pattern)):
            relative = page.relative_to(labelled).parts
            name = "/".join(relative[: 1 + level]) if level else relative[0]
            groups.setdefault(f"labeled/{name}", []).append(page)
    return groups


def read_page(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def plan_hosts(groups: Dict[str, List[Path]], count: int, rng: random.Random) -> List[Tuple[str, str, int]]:
    """(host, group, pages) for every host, totalling `count` pages."""
    hosts = []
    for name, group, share in BIG_HOSTS:
        if group not in groups:  # a labelled set's sites together: one big host of news pages
            groups[group] = [page for key in sorted(groups) if key.startswith(group + "/") for page in groups[key]]
        hosts.append((f"{name}-big.example", group, round(count * share)))
    big = {group for _, group, _ in BIG_HOSTS}
    site_groups = sorted(g for g in groups if g.startswith("sites/"))
    labelled_groups = sorted(g for g in groups if g.startswith("labeled/") and g not in big)
    left = count - sum(pages for _, _, pages in hosts)
    serial: Counter = Counter()
    while left > 0:
        pages = min(left, int(math.exp(rng.uniform(math.log(5), math.log(201)))))
        group = rng.choice(site_groups if rng.random() < 0.75 else labelled_groups)
        serial[group] += 1
        hosts.append((f"{slug(group.split('/', 1)[1])}-{serial[group]}.example", group, pages))
        left -= pages
    return hosts


def http_block(body: bytes, content_type: str) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


def warc_member(url: str, block: bytes, rng: random.Random, level: int) -> bytes:
    """One WARC/1.0 response record as its own gzip member."""
    record_id = uuid.UUID(int=rng.getrandbits(128))
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{record_id}>\r\n"
        "WARC-Date: 2026-11-26T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode()
    compressor = zlib.compressobj(level, zlib.DEFLATED, 31)
    return compressor.compress(head + block + b"\r\n\r\n") + compressor.flush()


def broken_record(kind: str, rng: random.Random) -> bytes:
    """The HTTP block of a broken record of `kind`."""
    if kind == "bad-http-header":
        return b"HTTP/1.1 two hundred\r\nthis line has no colon\r\n\r\n<html><p>after a bad header</p></html>"
    if kind == "non-html":
        return http_block(b"\x89PNG\r\n\x1a\n" + rng.randbytes(2000), "image/png")
    if kind == "binary-body":
        return http_block(rng.randbytes(50_000), "text/html")
    if kind == "empty-body":
        return http_block(b"", "text/html; charset=utf-8")
    if kind == "huge-body":
        row = b"<tr><td>cell</td><td>another cell with some words</td><td>3.14</td></tr>\n"
        body = b"<html><body><table>" + row * (HUGE_BYTES // len(row)) + b"</table></body></html>"
        return http_block(body, "text/html; charset=utf-8")
    raise ValueError(kind)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", type=Path)
    parser.add_argument("pages", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--per-file", type=int, default=2500)
    parser.add_argument("--level", type=int, default=3, help="gzip level")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    groups = page_groups(args.datasets)
    hosts = plan_hosts(groups, args.pages, rng)
    pages: List[Tuple[str, str, Path]] = []  # url, host, file
    for host, group, count in hosts:
        members = groups[group][:]
        rng.shuffle(members)
        for index in range(count):
            path = members[index % len(members)]
            name = path.name[:-3] if path.name.endswith(".gz") else path.name
            pages.append((f"https://{host}/{index}/{name}", host, path))
    rng.shuffle(pages)
    args.out.mkdir(parents=True, exist_ok=True)
    cache: Dict[Path, bytes] = {}
    kinds: Counter = Counter()
    body_bytes = 0
    files = math.ceil(len(pages) / args.per_file)
    with open(args.out / "records.tsv", "w") as listing:
        listing.write("file\trecord\turl\thost\tkind\n")
        for number in range(files):
            chunk = pages[number * args.per_file : (number + 1) * args.per_file]
            name = f"crawl-{number:05d}.warc.gz"
            broken_at = {rng.randrange(len(chunk)): kind for kind in BROKEN_KINDS}
            truncated = number % 5 == 4 or number == files - 1
            records: List[Tuple[str, str, str, bytes]] = []
            for position, (url, host, path) in enumerate(chunk):
                if position in broken_at:  # on the host of the page it precedes, like any of its pages
                    kind = broken_at[position]
                    records.append((f"https://{host}/broken/{number}/{kind}", host, kind, broken_record(kind, rng)))
                if path not in cache:
                    cache[path] = read_page(path)
                body = cache[path]
                body_bytes += len(body)
                records.append((url, host, "page", http_block(body, "text/html; charset=utf-8")))
            with open(args.out / name, "wb") as stream:
                for index, (url, host, kind, block) in enumerate(records):
                    member = warc_member(url, block, rng, args.level)
                    last = index == len(records) - 1
                    if truncated and last:
                        member = member[: len(member) // 2]
                        kind = "truncated-gzip"
                    stream.write(member)
                    kinds[kind] += 1
                    listing.write(f"{name}\t{index}\t{url}\t{host}\t{kind}\n")
    small = [count for host, _, count in hosts if "-big" not in host]
    manifest = {
        "pages_asked": args.pages,
        "records": sum(kinds.values()),
        "records_by_kind": dict(sorted(kinds.items())),
        "files": files,
        "hosts": len(hosts),
        "big_hosts": {host: count for host, _, count in hosts if "-big" in host},
        "small_hosts": len(small),
        "small_host_pages": {"min": min(small, default=0), "median": sorted(small)[len(small) // 2] if small else 0,
                             "max": max(small, default=0), "under_10": sum(1 for c in small if c < 10)},
        "pages_from_sites": sum(1 for _, _, p in pages if "/sites/" in str(p)),
        "pages_from_labeled": sum(1 for _, _, p in pages if "/labeled/" in str(p)),
        "distinct_bodies": len(cache),
        "page_body_bytes": body_bytes,
        "seed": args.seed,
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
