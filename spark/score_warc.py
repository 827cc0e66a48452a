"""Scores every HTML response of WARC files with pagelevel on Spark and writes Parquet.

    python spark/score_warc.py WARC_OR_GLOB... --output DIR [--master local[2]] [--layout native]
    spark-submit spark/score_warc.py WARC_OR_GLOB... --output DIR

Each WARC file is one task: an executor reads it record by record (warcio) and scores the
HTML responses with one ``pagelevel.Scorer`` per partition, so engines are made once per task,
not per page. A page that cannot be scored becomes a row with ``error`` set, never a lost task.
When the file archived stylesheets (``text/css`` responses), a page is laid out with those it
links and imports, found by URL (``archived_css.py``); stylesheets give no rows.
Every executor needs the pagelevel wheel (and Chromium only for ``--layout chromium``) in the
Python that ``PYSPARK_PYTHON`` names there; with a local master the workers run the driver's own
interpreter unless ``PYSPARK_PYTHON`` says otherwise (so a virtual environment just works).

Rows: url, host, title, main_text, main_markdown, content_text, template_share, sections (JSON),
metadata (JSON: headline, author, published, language, site name, ... and their sources),
page_type (article, collection, documentation, forum, listing, product or service),
page_type_probability, error.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from typing import Iterable, Iterator, List, Optional, Tuple
from urllib.parse import urlsplit

ROW_FIELDS = [
    ("url", "string"),
    ("host", "string"),
    ("title", "string"),
    ("main_text", "string"),
    ("main_markdown", "string"),
    ("content_text", "string"),
    ("template_share", "double"),
    ("sections", "string"),
    ("metadata", "string"),
    ("page_type", "string"),
    ("page_type_probability", "double"),
    ("error", "string"),
]

Row = Tuple[
    str, str, Optional[str], Optional[str], Optional[str], Optional[str], Optional[float],
    Optional[str], Optional[str], Optional[str], Optional[float], Optional[str],
]


def html_responses(path: str) -> Iterator[Tuple[str, bytes, Optional[str]]]:
    """(url, body, None) of every HTML response record of one WARC file, read as a stream, and
    (url, b"", why) of every response whose HTTP head cannot be read (its content type is
    unknown, so it may be a page, and a page that cannot be scored is a row) or whose record
    was cut short (half a page is not the page)."""
    from warcio.archiveiterator import ArchiveIterator

    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            url = record.rec_headers.get_header("WARC-Target-URI") or ""
            status = record.http_headers.get_statuscode()
            if not (len(status) == 3 and status.isdigit()):  # warcio reads any first line
                statusline = record.http_headers.protocol + " " + record.http_headers.statusline
                yield url, b"", f"malformed HTTP response head (status line {statusline.strip()!r})"
                continue
            content_type = (record.http_headers.get_header("Content-Type") or "").lower()
            if "html" not in content_type:
                continue
            body = record.content_stream().read()
            cut_short = truncation(record)
            if cut_short:
                yield url, b"", cut_short
                continue
            yield url, body, None


def truncation(record) -> Optional[str]:
    """Why a record whose content was just read was cut short, or None when it is whole.
    warcio ends a record cut short (a truncated gzip member) without an error; the bytes its
    WARC header promised and the file lacked are left in its raw stream. Half a page is not
    the page."""
    missing = getattr(record.raw_stream, "limit", 0)
    return f"truncated record: its WARC block ends {missing} bytes short" if missing else None


def score_files(paths: Iterable[str], layout: str) -> Iterator[Row]:
    """The rows of every HTML response of `paths`, with one scorer for all of them."""
    import pagelevel

    from archived_css import FileStylesheets

    scorer = pagelevel.Scorer(layout=layout)
    for path in paths:
        stylesheets = None
        try:
            stylesheets = FileStylesheets(path)
            for url, body, unreadable in html_responses(path):
                if unreadable:
                    yield failed_row(url, urlsplit(url).netloc, unreadable)
                else:
                    yield score_one(scorer, url, body, stylesheets)
        except Exception as error:  # an unreadable archive is a row too, not a lost task
            yield failed_row(path, "", f"cannot read {path}: {error}")
        finally:
            if stylesheets is not None:
                stylesheets.close()


def score_one(scorer, url: str, body: bytes, stylesheets=None) -> Row:
    host = urlsplit(url).netloc
    try:
        sheets = stylesheets.for_page(body, url, host) if stylesheets is not None and url else None
        page = scorer.score(body, url=url or None, nodes=False, stylesheets=sheets)
    except Exception as error:
        return failed_row(url, host, str(error))
    return (
        url,
        host,
        page["title"],
        page["main_text"],
        page["main_markdown"],
        page["content_text"],
        page["template_text_share"],
        json.dumps(page["sections"]),
        json.dumps(page["metadata"]),
        page["page_type"]["type"],
        page["page_type"]["probability"],
        None,
    )


def failed_row(url: str, host: str, error: str) -> Row:
    """The row of a page or file that could not be scored: where, and why."""
    empty = (None,) * (len(ROW_FIELDS) - 3)
    return (url, host, *empty, error)


def expand(patterns: List[str]) -> List[str]:
    """Files named or matched by the glob patterns, in order, each once."""
    paths: List[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) or [pattern]
        paths.extend(path for path in matches if path not in paths)
    return paths


def run(patterns: List[str], output: str, master: Optional[str], layout: str) -> int:
    """Scores the WARC files and writes the Parquet dataset; returns the rows written."""
    paths = expand(patterns)
    spark = start_session("pagelevel-score-warc", master, ["score_warc.py", "archived_css.py"])
    try:
        schema = ", ".join(f"{name} {kind}" for name, kind in ROW_FIELDS)
        rows = spark.sparkContext.parallelize(paths, max(1, len(paths))).mapPartitions(
            lambda partition: score_files(partition, layout)
        )
        frame = spark.createDataFrame(rows, schema)
        frame.write.mode("overwrite").parquet(output)
        return spark.read.parquet(output).count()
    finally:
        spark.stop()


class WorkersCannotImportPagelevel(Exception):
    """The Python that Spark starts its workers with has no pagelevel package; the message is
    the one line the user reads."""


def start_session(app_name: str, master: Optional[str], modules: List[str]):
    """A Spark session whose workers can import pagelevel, with `modules` (files beside this one)
    shipped to them.

    Spark starts its Python workers with ``PYSPARK_PYTHON``, else ``python3`` from the PATH —
    not the interpreter running this script, which in a virtual environment is the only one
    with pagelevel installed. So with a local master and no ``PYSPARK_PYTHON`` (nor
    ``spark.pyspark.python``), the workers run this interpreter; on a cluster nothing is
    guessed. Either way one small task checks that the workers can import pagelevel, so a
    wrong Python is one clear line (:class:`WorkersCannotImportPagelevel`), not a Java trace
    from the middle of the job."""
    from pyspark import SparkConf
    from pyspark.sql import SparkSession

    conf = SparkConf()  # under spark-submit, carries its --master and --conf settings
    if master:
        conf.setMaster(master)
    local = conf.get("spark.master", "local[*]").startswith("local")
    chosen = os.environ.get("PYSPARK_PYTHON") or conf.get("spark.pyspark.python", None)
    if local and not chosen:
        os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = SparkSession.builder.appName(app_name).config(conf=conf).getOrCreate()
    here = os.path.dirname(os.path.abspath(__file__))
    for module in modules:
        spark.sparkContext.addPyFile(os.path.join(here, module))
    python, error = spark.sparkContext.parallelize([0], 1).mapPartitions(worker_import).collect()[0]
    if error is not None:
        spark.stop()
        raise WorkersCannotImportPagelevel(
            f"the Spark workers run {python}, which cannot import pagelevel ({error}): install "
            "the pagelevel wheel into that Python, or set PYSPARK_PYTHON to a Python that has it"
        )
    return spark


def worker_import(_partition) -> Iterator[Tuple[str, Optional[str]]]:
    """On a worker: its interpreter, and why it cannot import pagelevel (None when it can)."""
    try:
        import pagelevel  # noqa: F401

        yield sys.executable, None
    except ImportError as error:
        yield sys.executable, str(error)


def job_arguments(description: str, output_help: str) -> argparse.ArgumentParser:
    """The arguments both jobs take: WARC files, an output directory, the master, the layout."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("warcs", nargs="+", help="WARC files (.warc, .warc.gz) or glob patterns")
    parser.add_argument("--output", required=True, help=output_help)
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument("--layout", choices=["native", "chromium"], default="native")
    return parser


def missing_warc(patterns: List[str]) -> Optional[str]:
    """The first named WARC file that does not exist, reported before Spark starts."""
    missing = [path for path in expand(patterns) if not os.path.exists(path)]
    if missing:
        print(f"pagelevel: error: no such WARC file: {missing[0]}", file=sys.stderr)
        return missing[0]
    return None


def master_for(requested: Optional[str]) -> Optional[str]:
    """The master asked for; run as a plain script, this machine (spark-submit sets its own)."""
    under_spark_submit = "PYSPARK_GATEWAY_PORT" in os.environ
    return requested or (None if under_spark_submit else "local[2]")


def main(argv: List[str]) -> int:
    args = job_arguments(__doc__.split("\n\n")[0], "Parquet output directory").parse_args(argv)
    if missing_warc(args.warcs):
        return 2
    try:
        rows = run(args.warcs, args.output, master_for(args.master), args.layout)
    except WorkersCannotImportPagelevel as error:
        print(f"pagelevel: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {rows} rows to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
