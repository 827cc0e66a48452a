"""Labels the pages of a crawl per host on Spark and writes training rows for `pagelevel train`.

    python spark/label_hosts.py WARC_OR_GLOB... --output DIR [--master local[2]] [--layout native]
    spark-submit spark/label_hosts.py WARC_OR_GLOB... --output DIR
    pagelevel train --rows DIR --out model.json --report report/

The paper's training data comes for free from sites: a site-level detector marks the DOM
subtrees a host repeats on many of its pages, and those marks label every node. Here each
WARC file is read in a task; HTML responses are grouped by host, and each host is labelled in
one task by ``pagelevel.label_site`` (a seeded sample of ``--max-pages`` pages, laid out,
labelled, one row per classified node). The rows (CSV with a header, ``pagelevel.TRAINING_COLUMNS``)
are those ``pagelevel train --sites … --rows-out`` writes for the same pages of the same host.

Hosts with fewer than ``--min-pages`` usable pages are skipped and listed on standard error.
A host's pages are held by one executor while it is labelled: a host's response bodies must fit
in an executor's memory (``--max-pages`` bounds what is laid out, not what is grouped).
"""

from __future__ import annotations

import sys
from typing import Iterable, Iterator, List, Optional, Tuple
from urllib.parse import urlsplit

from score_warc import WorkersCannotImportPagelevel, expand, job_arguments, master_for, missing_warc, start_session

# (host, (file index, record index, url, body, HTTP charset))
HostRecord = Tuple[str, Tuple[int, int, str, bytes, Optional[str]]]


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


def host_records(indexed_paths: Iterable[Tuple[int, str]]) -> Iterator[HostRecord]:
    """Every HTML response of the files, keyed by host, with its place in the crawl."""
    from warcio.archiveiterator import ArchiveIterator

    for file_index, path in indexed_paths:
        with open(path, "rb") as stream:
            record_index = 0
            for record in ArchiveIterator(stream):
                if record.rec_type != "response" or record.http_headers is None:
                    continue
                if record.http_headers.get_statuscode() != "200":
                    continue
                content_type = record.http_headers.get_header("Content-Type") or ""
                if "html" not in content_type.lower():
                    continue
                url = record.rec_headers.get_header("WARC-Target-URI") or ""
                host = site_of(url)
                if not host:
                    continue
                body = record.content_stream().read()
                yield host, (file_index, record_index, url, body, http_charset(content_type))
                record_index += 1


def label_host(host: str, records, options: dict) -> Iterator[Tuple[str, tuple]]:
    """("row", row) for each training row of the host, or one ("skipped", reason)."""
    import pagelevel

    # Crawl order (file, then record), as `pagelevel train` reads a WARC: the sample is drawn
    # from this order, so both pick the same pages.
    pages, seen = [], set()
    for _, _, url, body, charset in sorted(records, key=lambda record: record[:2]):
        if url not in seen:  # a URL archived twice is one page, its first capture
            seen.add(url)
            pages.append((url, body, charset))
    try:
        for row in pagelevel.label_site(pages, host=host, **options):
            yield "row", row
    except (pagelevel.SiteError, pagelevel.PageError, ValueError) as error:
        yield "skipped", (host, str(error))


def row_schema():
    """The Spark schema of a training row (``pagelevel.TRAINING_COLUMNS``)."""
    import pagelevel
    from pyspark.sql.types import BooleanType, DoubleType, StringType, StructField, StructType

    kinds = {"site": StringType(), "domain": StringType(), "layout": StringType(), "page": StringType()}
    kinds["template"] = BooleanType()
    return StructType(
        [StructField(name, kinds.get(name, DoubleType()), name == "domain") for name in pagelevel.TRAINING_COLUMNS]
    )


def run(patterns: List[str], output: str, master: Optional[str], options: dict) -> Tuple[int, List[Tuple[str, str]]]:
    """Labels every host of the WARC files and writes the rows; returns (rows, skipped hosts)."""
    from pyspark import StorageLevel

    paths = expand(patterns)
    spark = start_session("pagelevel-label-hosts", master, ["label_hosts.py", "score_warc.py"])
    try:
        context = spark.sparkContext
        labelled = (
            context.parallelize(list(enumerate(paths)), max(1, len(paths)))
            .mapPartitions(host_records)
            .groupByKey(max(1, context.defaultParallelism))
            .flatMap(lambda host_and_records: label_host(host_and_records[0], host_and_records[1], options))
            .persist(StorageLevel.MEMORY_AND_DISK)
        )
        rows = labelled.filter(lambda item: item[0] == "row").map(lambda item: item[1])
        frame = spark.createDataFrame(rows, row_schema())
        frame.write.mode("overwrite").option("header", True).csv(output)
        skipped = labelled.filter(lambda item: item[0] == "skipped").map(lambda item: item[1]).collect()
        return spark.read.option("header", True).csv(output).count(), sorted(skipped)
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
    for host, reason in skipped:
        print(f"pagelevel: warning: skipped host {host}: {reason}", file=sys.stderr)
    print(f"wrote {rows} training rows to {args.output} ({len(skipped)} hosts skipped)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
