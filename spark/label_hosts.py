"""Labels the pages of a crawl per host on Spark and writes training rows for `pagelevel train`.

    python spark/label_hosts.py WARC_OR_GLOB... --output DIR [--master local[2]] [--layout native]
    spark-submit spark/label_hosts.py WARC_OR_GLOB... --output DIR
    pagelevel train --rows DIR --out model.json --report report/

The paper's training data comes for free from sites: a site-level detector marks the DOM
subtrees a host repeats on many of its pages, and those marks label every node. Each host is
labelled by ``pagelevel.label_site`` from a seeded sample of ``--max-pages`` of its pages (laid
out, labelled, one row per classified node). The rows (CSV with a header,
``pagelevel.TRAINING_COLUMNS``) are those ``pagelevel train --sites … --rows-out`` writes for the
same pages of the same host.

The job reads the crawl twice, so that no task holds more than a host's sample:

1. Each WARC file is read in a task, keeping only where each HTML response lies (:class:`Place`:
   host, URL, file, record, byte offset) — no bodies. A URL archived twice is one page, its
   first capture. The places are sorted by host in crawl order (Spark sorts and spills), and
   each host's sample is picked from its page count by ``pagelevel.host_sample``: the very
   sample ``label_site`` draws, so the rows are those of labelling all the host's pages.
2. Each WARC file is read again for the sampled records only (a seek to each record's offset),
   the bodies are grouped by host — at most ``--max-pages`` a host — and labelled.

Stylesheets the crawl archived (``text/css`` responses, first capture of a URL) are located in
pass 1 too (URL, file, offset: no bodies). In pass 2 the URLs the sampled pages link
(``pagelevel.linked_stylesheets``) are joined to them, those records read (by offset), then the
sheets they ``@import`` the same way (``archived_css.py``), and each host is labelled with the
sheets its sampled pages load (``label_site(..., stylesheets=...)``), wherever they are hosted.

Hosts with fewer than ``--min-pages`` usable pages are skipped, as are hosts whose sampled
record cannot be read again; sampled pages that cannot be laid out give no rows; WARC files
damaged part-way are read up to the damage. All of them are listed in ``OUTPUT/_skipped/``
(CSV: kind, name, reason), counted and the first few printed on standard error.
"""

from __future__ import annotations

import os
import sys
from operator import add
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple
from urllib.parse import urlsplit

from score_warc import (
    WorkersCannotImportPagelevel,
    expand,
    job_arguments,
    master_for,
    missing_warc,
    start_session,
    truncation,
)


class Place(NamedTuple):
    """Where one HTML response lies in the crawl: all the first pass keeps of it."""

    host: str
    url: str
    file: int  # index of the WARC file in the job's file list
    record: int  # ordinal of the response among its file's HTML responses
    offset: int  # byte offset of its record in the file, where the second pass seeks


# (rank in the host's sample, url, body or None, HTTP charset or why the record is unreadable)
SampledPage = Tuple[int, str, Optional[bytes], Optional[str]]
# ("row", training row) or ("skipped", (host, WARC path or sampled page's URL, reason))
Labelled = Tuple[str, tuple]
UNLABELLED_PAGE = "no training rows: the page could not be laid out or none of its nodes was classified"


def http_charset(content_type: str) -> Optional[str]:
    """The ``charset=`` parameter of a Content-Type header, if any."""
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'")
    return None


def site_of(url: str) -> Optional[str]:
    """The host a page belongs to, as `pagelevel train` groups a WARC: host, and port when it
    is not the scheme's default."""
    parts = urlsplit(url)
    if not parts.hostname:
        return None
    default = {"http": 80, "https": 443}.get(parts.scheme)
    try:
        port = parts.port
    except ValueError:
        return None
    return parts.hostname if port in (None, default) else f"{parts.hostname}:{port}"


def html_responses(stream) -> Iterator[Tuple[str, int, str, str]]:
    """(kind, offset, url, host) of every HTML ("place") and CSS ("css") response with a
    host; bodies are skipped unread."""
    from archived_css import is_css, ok_responses, without_fragment

    for offset, url, content_type in ok_responses(stream):
        kind = "place" if "html" in content_type.lower() else "css" if is_css(content_type) else None
        host = site_of(url)
        if kind and host:
            yield kind, offset, url if kind == "place" else without_fragment(url), host


def locate(indexed_paths: Iterable[Tuple[int, str]]) -> Iterator[Tuple[str, tuple]]:
    """Pass 1: ("place", Place) for every HTML response of the files and ("css", Place) for
    every stylesheet (record -1), bodies unread; a file damaged part-way ends with
    ("skipped", (path, reason)) after the places read before."""
    for file_index, path in indexed_paths:
        ordinal = 0
        try:
            with open(path, "rb") as stream:
                for kind, offset, url, host in html_responses(stream):
                    if kind == "css":
                        yield "css", Place(host, url, file_index, -1, offset)
                        continue
                    yield "place", Place(host, url, file_index, ordinal, offset)
                    ordinal += 1
        except Exception as error:  # a damaged archive is a listed skip, not a lost task
            yield "skipped", (path, f"cannot read past HTML response {ordinal} of the WARC file: {error}")


def pick_samples(sorted_places: Iterable[Tuple[tuple, object]], options: dict) -> Iterator[Tuple[int, tuple]]:
    """Pass 1's end: (file, (rank in the sample, place)) of each sampled page, from one
    partition's places sorted by (host, file, record), each host's run headed by its page
    count (key (host, -1, -1)). Holds one host's sample positions, never its pages."""
    import pagelevel

    chosen: Dict[int, int] = {}
    position = 0
    for (host, file, _), value in sorted_places:
        if file < 0:
            order = pagelevel.host_sample(value, host=host, max_pages=options["max_pages"], seed=options["seed"])
            chosen = {index: rank for rank, index in enumerate(order)}
            position = 0
            continue
        if position in chosen:
            yield value.file, (chosen[position], value)
        position += 1


def read_sample(path: str, sampled: Iterable[Tuple[int, Place]]) -> Iterator[Tuple[str, SampledPage]]:
    """Pass 2: (host, sampled page) for the sampled records of one WARC file, read by seeking
    to each record's offset; no other record of the file is read. A record that is not there,
    or cannot be read, comes out without a body and with the reason."""
    from warcio.archiveiterator import ArchiveIterator

    sampled = sorted(sampled, key=lambda item: item[1].offset)
    try:
        stream = open(path, "rb")
    except OSError as error:
        for rank, place in sampled:
            yield place.host, (rank, place.url, None, f"cannot open {path} again: {error}")
        return
    with stream:
        for rank, place in sampled:
            try:
                stream.seek(place.offset)
                record = next(iter(ArchiveIterator(stream)))
                url = record.rec_headers.get_header("WARC-Target-URI")
                if record.rec_type != "response" or url != place.url:
                    raise ValueError(f"the record there is a {record.rec_type} of {url}")
                body = record.content_stream().read()
                cut_short = truncation(record)
                if cut_short:
                    raise ValueError(cut_short)
                charset = http_charset(record.http_headers.get_header("Content-Type") or "")
                yield place.host, (rank, place.url, body, charset)
            except Exception as error:  # a broken record is a listed skip, not a lost task
                reason = f"cannot read {place.url} again at offset {place.offset} of {path}: {error}"
                yield place.host, (rank, place.url, None, reason)


def read_stylesheets(path: str, wanted: Iterable[Tuple[str, Place]]) -> Iterator[Tuple[str, SampledPage]]:
    """Pass 2: (host, (-1, url, css, content type)) for each stylesheet a host's pages load
    from one WARC file, read by seeking to its record; a sheet that cannot be read is left out,
    as one that did not load."""
    from archived_css import read_stylesheet

    wanted = sorted(wanted, key=lambda item: item[1].offset)
    try:
        stream = open(path, "rb")
    except OSError:
        return
    with stream:
        for host, place in wanted:
            try:
                css, content_type = read_stylesheet(stream, place.offset, place.url)
            except Exception:  # a broken record is a sheet that did not load
                continue
            yield host, (-1, place.url, css, content_type)


def linked_by_page(item: Tuple[str, SampledPage]) -> Iterator[Tuple[str, str]]:
    """(stylesheet URL, host) for each sheet a sampled page links."""
    import pagelevel
    from archived_css import without_fragment

    host, (_, url, body, charset) = item
    if body is None:
        return
    try:
        linked = pagelevel.linked_stylesheets(body, url, charset=charset)
    except ValueError:
        return
    for sheet in linked:
        yield without_fragment(sheet), host


def imported_by_sheet(item: Tuple[str, SampledPage]) -> Iterator[Tuple[str, str]]:
    """(stylesheet URL, host) for each sheet a host's loaded sheet imports."""
    from archived_css import imported_urls

    host, (_, url, css, _) = item
    for imported in imported_urls(css, url):
        yield imported, host


def archived_stylesheets(pages, css_places, paths: List[str], partitions: int):
    """Pass 2's stylesheets: (host, (-1, url, css, content type)) for every archived sheet
    the host's sampled pages link or (MAX_IMPORT_DEPTH levels deep) import."""
    from archived_css import MAX_IMPORT_DEPTH

    wanted = pages.flatMap(linked_by_page).distinct(partitions)
    seen = wanted
    read = pages.context.emptyRDD()
    for _ in range(MAX_IMPORT_DEPTH + 1):
        level = (
            wanted.join(css_places, partitions)
            .map(lambda item: (item[1][1].file, (item[1][0], item[1][1])))
            .groupByKey(max(1, len(paths)))
            .flatMap(lambda file_and_wanted: read_stylesheets(paths[file_and_wanted[0]], file_and_wanted[1]))
            .cache()
        )
        read = read.union(level)
        wanted = level.flatMap(imported_by_sheet).distinct(partitions).subtract(seen, partitions).cache()
        if wanted.isEmpty():
            break
        seen = seen.union(wanted)
    return read


def host_stylesheets(sheets: Iterable[SampledPage]) -> Optional[dict]:
    """A host's loaded sheets as ``label_site``'s ``stylesheets``: by URL, at most
    MAX_HOST_CSS_BYTES of them (in URL order)."""
    from archived_css import MAX_HOST_CSS_BYTES

    chosen, size = {}, 0
    for _, url, css, content_type in sorted(sheets, key=lambda sheet: sheet[1]):
        if url in chosen or size + len(css) > MAX_HOST_CSS_BYTES:
            continue
        chosen[url] = (css, content_type)
        size += len(css)
    return chosen or None


def label_sample(host: str, sample: Iterable[SampledPage], options: dict) -> Iterator[Labelled]:
    """("row", row) for each training row of the host's sampled pages, or one ("skipped",
    reason); the host's loaded stylesheets come with rank -1."""
    import pagelevel

    sample = list(sample)
    stylesheets = host_stylesheets(item for item in sample if item[0] < 0)
    pages = sorted((item for item in sample if item[0] >= 0), key=lambda page: page[0])
    if not pages:
        return
    unreadable = [reason for _, _, body, reason in pages if body is None]
    if unreadable:
        yield "skipped", (host, unreadable[0])
        return
    try:
        sampled = [(url, body, charset) for _, url, body, charset in pages]
        rows = pagelevel.label_site(sampled, host=host, sampled=True, stylesheets=stylesheets, **options)
    except (pagelevel.SiteError, pagelevel.PageError, ValueError) as error:
        yield "skipped", (host, str(error))
        return
    page_column = pagelevel.TRAINING_COLUMNS.index("page")
    labelled = set()
    for row in rows:
        labelled.add(row[page_column])
        yield "row", row
    # label_site passes over a page it cannot lay out (an empty, binary or oversized body):
    # the host's other pages are labelled, and the page is listed, not lost without a word.
    for _, url, _, _ in pages:
        if url not in labelled:
            yield "skipped", (url, UNLABELLED_PAGE)


def row_schema():
    """The Spark schema of a training row (``pagelevel.TRAINING_COLUMNS``)."""
    import pagelevel
    from pyspark.sql.types import BooleanType, DoubleType, StringType, StructField, StructType

    kinds = {"site": StringType(), "domain": StringType(), "layout": StringType(), "page": StringType()}
    kinds["template"] = BooleanType()
    return StructType(
        [StructField(name, kinds.get(name, DoubleType()), name == "domain") for name in pagelevel.TRAINING_COLUMNS]
    )


def sampled_places(context, paths: List[str], options: dict):
    """Pass 1: (skipped files RDD, RDD of (file, (rank, Place)) for every host's sample,
    RDD of (url, Place) of every archived stylesheet's first capture)."""
    from pyspark import StorageLevel
    from pyspark.rdd import portable_hash

    located = (
        context.parallelize(list(enumerate(paths)), max(1, len(paths)))
        .mapPartitions(locate)
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    partitions = max(1, context.defaultParallelism)
    skipped = located.filter(lambda item: item[0] == "skipped").map(lambda item: item[1])
    first_captures = (
        located.filter(lambda item: item[0] == "place")
        .map(lambda item: (item[1].url, item[1]))
        .reduceByKey(lambda one, other: min(one, other, key=lambda place: (place.file, place.record)), partitions)
        .values()
    )
    counts = first_captures.map(lambda place: (place.host, 1)).reduceByKey(add, partitions)
    in_crawl_order = first_captures.map(lambda place: ((place.host, place.file, place.record), place)).union(
        counts.map(lambda host_count: ((host_count[0], -1, -1), host_count[1]))
    )
    samples = in_crawl_order.repartitionAndSortWithinPartitions(
        partitions, partitionFunc=lambda key: portable_hash(key[0])
    ).mapPartitions(lambda partition: pick_samples(partition, options))
    css_places = (
        located.filter(lambda item: item[0] == "css")
        .map(lambda item: (item[1].url, item[1]))
        .reduceByKey(lambda one, other: min(one, other, key=lambda place: (place.file, place.offset)), partitions)
    )
    return skipped, samples, css_places


class Skipped(NamedTuple):
    """What the job passed over: how many of each kind, and the first few (sorted); all of them
    are in the output's ``_skipped/`` CSV (kind, name, reason)."""

    counts: Dict[str, int]  # "file" (read in part), "host", "page" (sampled, no rows)
    first: List[Tuple[str, str, str]]  # (kind, WARC path / host / URL, reason)


SHOWN = 20  # skipped items printed; a crawl has millions of hosts under --min-pages


def skip_kind(name: str, reason: str, files: frozenset) -> str:
    if name in files:
        return "file"
    return "page" if reason == UNLABELLED_PAGE else "host"


def run(patterns: List[str], output: str, master: Optional[str], options: dict) -> Tuple[int, Skipped]:
    """Labels every host of the WARC files and writes the rows, and what was skipped under
    ``OUTPUT/_skipped/`` (which ``train --rows`` and Spark's readers pass over); returns (rows,
    :class:`Skipped`). The driver holds counts and the first few skipped, never the list: a
    crawl's hosts under ``--min-pages`` are counted in millions."""
    from pyspark import StorageLevel

    paths = expand(patterns)
    files = frozenset(paths)
    spark = start_session("pagelevel-label-hosts", master, ["label_hosts.py", "score_warc.py", "archived_css.py"])
    try:
        context = spark.sparkContext
        partitions = max(1, context.defaultParallelism)
        damaged, samples, css_places = sampled_places(context, paths, options)
        # The sampled pages' bodies, read once and used twice (the stylesheets they link, their
        # labels), are cached on disk only: a file's sample holds up to ~2,500 bodies, some of
        # 20 MiB, and caching them in the heap first ran the JVM out of it at 200,000 pages.
        pages = (
            samples.groupByKey(max(1, len(paths)))
            .flatMap(lambda file_and_sample: read_sample(paths[file_and_sample[0]], file_and_sample[1]))
            .persist(StorageLevel.DISK_ONLY)
        )
        stylesheets = archived_stylesheets(pages, css_places, paths, partitions)
        # The rows are ~200 a labelled page: a partition per core held a crawl's worth of
        # rows (8 million at 50,000 pages) and its cached copy ran the JVM out of heap. A
        # partition per WARC file keeps a partition to about a file's pages, whatever the
        # crawl's size, and the rows are cached on disk only (written once, read twice).
        labelled = (
            pages.union(stylesheets)
            .groupByKey(max(1, len(paths), partitions))
            .flatMap(lambda host_and_sample: label_sample(host_and_sample[0], host_and_sample[1], options))
            .persist(StorageLevel.DISK_ONLY)
        )
        rows = labelled.filter(lambda item: item[0] == "row").map(lambda item: item[1])
        frame = spark.createDataFrame(rows, row_schema())
        frame.write.mode("overwrite").option("header", True).csv(output)
        skipped = (
            labelled.filter(lambda item: item[0] == "skipped")
            .map(lambda item: item[1])
            .union(damaged)
            .map(lambda item: (skip_kind(item[0], item[1], files), item[0], item[1]))
            .persist(StorageLevel.MEMORY_AND_DISK)
        )
        listing = spark.createDataFrame(skipped, "kind string, name string, reason string")
        listing.write.mode("overwrite").option("header", True).csv(os.path.join(output, "_skipped"))
        counts = dict(skipped.map(lambda item: item[0]).countByValue())
        written = spark.read.option("header", True).csv(output).count()
        return written, Skipped(counts, skipped.takeOrdered(SHOWN))
    finally:
        spark.stop()


def main(argv: List[str]) -> int:
    parser = job_arguments(__doc__.split("\n\n")[0], "directory for the training rows (CSV)")
    parser.add_argument("--max-pages", type=int, default=200, help="pages sampled per host (seeded)")
    parser.add_argument("--min-pages", type=int, default=10, help="hosts with fewer usable pages are skipped")
    parser.add_argument("--theta", type=float, default=0.10, help="SiteLevel θ: share of pages a subtree repeats on")
    parser.add_argument("--labeler", choices=["frequency", "pagelets", "rtdm", "msa"], default="frequency")
    parser.add_argument("--seed", type=int, default=7, help="seed of the page sample")
    args = parser.parse_args(argv)
    if missing_warc(args.warcs):
        return 2
    options = {
        "layout": args.layout,
        "max_pages": args.max_pages,
        "min_pages": args.min_pages,
        "theta": args.theta,
        "labeler": args.labeler,
        "seed": args.seed,
    }
    try:
        rows, skipped = run(args.warcs, args.output, master_for(args.master), options)
    except WorkersCannotImportPagelevel as error:
        print(f"pagelevel: error: {error}", file=sys.stderr)
        return 2
    said = {"file": "read only part of", "host": "skipped host", "page": "skipped page"}
    for kind, name, reason in skipped.first:
        print(f"pagelevel: warning: {said[kind]} {name}: {reason}", file=sys.stderr)
    counts = skipped.counts
    if sum(counts.values()) > len(skipped.first):
        print(f"pagelevel: warning: {sum(counts.values()) - len(skipped.first)} more skipped: "
              f"{os.path.join(args.output, '_skipped')} lists them all", file=sys.stderr)
    cut_short = f", {counts['file']} WARC files read in part" if counts.get("file") else ""
    unlabelled = f", {counts['page']} sampled pages without rows" if counts.get("page") else ""
    print(
        f"wrote {rows} training rows to {args.output} ({counts.get('host', 0)} hosts skipped{unlabelled}{cut_short})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
