"""A crawl's stylesheets for its pages: the ``text/css`` responses of WARC files, by URL.

A page laid out without its CSS is not the page its readers saw (a model trained on unstyled
crawls lost 0.16-0.42 template F1: ``training/reports/spark/``). When the crawl archived the
CSS, both jobs give each page the sheets it links (``pagelevel.linked_stylesheets``: resolved
against its ``<base href>``, else its URL) and, through ``@import``, the sheets those import, as
``stylesheets={url: (css, content_type)}``; pagelevel loads them from there, never the network.
A URL's first capture is its stylesheet; a stylesheet is not a page and gives no row.

Memory: a page's sheets, or one host's (``score_warc.py`` keeps the sheets read for the host
being scored, ``label_hosts.py`` the sheets its sampled pages link), never the crawl's; an
index of the CSS records (URL, file, offset) is all that spans a file or the crawl.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple
from urllib.parse import urljoin, urlsplit

# Most sheets one page loads (links and imports), as the native layout allows (web_root.rs).
MAX_SHEETS_PER_PAGE = 128
# Levels of @import followed from a linked sheet (Sphinx themes import two deep).
MAX_IMPORT_DEPTH = 4
# Most CSS bytes given with one host's pages: pagelevel's bound on a stylesheet map.
MAX_HOST_CSS_BYTES = 64 * 1024 * 1024

Stylesheet = Tuple[bytes, Optional[str]]  # (css, Content-Type)

# `@import "x.css";`, `@import url(x.css) screen;`, `@import url('x.css');`
IMPORT = re.compile(rb"""@import\s+(?:url\(\s*)?(?:"([^"]*)"|'([^']*)'|([^\s'")]+))""", re.IGNORECASE)


def is_css(content_type: str) -> bool:
    """Whether a Content-Type is CSS's (``text/css``, any parameters)."""
    return content_type.split(";")[0].strip().lower() == "text/css"


def imported_urls(css: bytes, url: str) -> List[str]:
    """The absolute http(s) URLs a sheet at ``url`` ``@import``s."""
    urls = []
    for match in IMPORT.finditer(css):
        target = next(group for group in match.groups() if group is not None)
        absolute = urljoin(url, target.decode("utf-8", "replace").strip())
        if urlsplit(absolute).scheme in ("http", "https") and absolute not in urls:
            urls.append(absolute)
    return urls


def without_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def sheets_of_page(linked: Iterable[str], lookup: Callable[[str], Optional[Stylesheet]]) -> Dict[str, Stylesheet]:
    """The sheets a page loads from the crawl: the ones it links, then what they import (at
    most MAX_IMPORT_DEPTH levels, MAX_SHEETS_PER_PAGE sheets), as ``lookup`` finds them; a
    sheet the crawl lacks is left out."""
    sheets: Dict[str, Stylesheet] = {}
    wanted = [without_fragment(url) for url in linked]
    for _ in range(MAX_IMPORT_DEPTH + 1):
        found = []
        for url in wanted:
            if url in sheets or len(sheets) >= MAX_SHEETS_PER_PAGE:
                continue
            sheet = lookup(url)
            if sheet is not None:
                sheets[url] = sheet
                found.append(url)
        wanted = [imported for url in found for imported in imported_urls(sheets[url][0], url)]
        if not wanted:
            break
    return sheets


def ok_responses(stream) -> Iterator[Tuple[int, str, str]]:
    """(offset, url, content type) of every response with HTTP status 200 in a WARC stream;
    bodies unread."""
    from warcio.archiveiterator import ArchiveIterator

    records = ArchiveIterator(stream)
    for record in records:
        if record.rec_type != "response" or record.http_headers is None:
            continue
        if record.http_headers.get_statuscode() != "200":
            continue
        url = record.rec_headers.get_header("WARC-Target-URI") or ""
        yield records.get_record_offset(), url, record.http_headers.get_header("Content-Type") or ""


def css_responses(stream) -> Iterator[Tuple[int, str]]:
    """(offset, url) of every CSS response with status 200 in a WARC stream; bodies unread."""
    for offset, url, content_type in ok_responses(stream):
        if is_css(content_type) and urlsplit(url).scheme in ("http", "https"):
            yield offset, without_fragment(url)


def read_stylesheet(stream, offset: int, url: str) -> Stylesheet:
    """The CSS response for ``url`` at ``offset`` of a WARC stream; raises when it is not there."""
    from warcio.archiveiterator import ArchiveIterator

    stream.seek(offset)
    record = next(iter(ArchiveIterator(stream)))
    target = without_fragment(record.rec_headers.get_header("WARC-Target-URI") or "")
    if record.rec_type != "response" or target != url:
        raise ValueError(f"the record at {offset} is a {record.rec_type} of {target}")
    return record.content_stream().read(), record.http_headers.get_header("Content-Type")


class FileStylesheets:
    """The CSS of one WARC file for ``score_warc.py``: an index (URL -> offset of its first
    capture) read in a first pass, and the sheets read for the host being scored, dropped when
    the next host begins (a host's CSS map, not the file's)."""

    def __init__(self, path: str):
        self.path = path
        with open(path, "rb") as stream:
            self.offsets: Dict[str, int] = {}
            for offset, url in css_responses(stream):
                self.offsets.setdefault(url, offset)
        self.stream = open(path, "rb") if self.offsets else None
        self.host: Optional[str] = None
        self.read: Dict[str, Optional[Stylesheet]] = {}
        self.bytes = 0

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()

    def for_page(self, body: bytes, url: str, host: str, charset: Optional[str] = None) -> Optional[Dict[str, Stylesheet]]:
        """The page's sheets from this file, or None when the file holds none it links."""
        if self.stream is None:
            return None
        import pagelevel

        if host != self.host:
            self.host, self.read, self.bytes = host, {}, 0
        try:
            linked = pagelevel.linked_stylesheets(body, url, charset=charset)
        except ValueError:  # a URL pagelevel cannot parse: the page is scored unstyled
            return None
        return sheets_of_page(linked, self.lookup) or None

    def lookup(self, url: str) -> Optional[Stylesheet]:
        if url not in self.read:
            offset = self.offsets.get(url)
            sheet = None
            if offset is not None and self.bytes < MAX_HOST_CSS_BYTES:
                try:
                    sheet = read_stylesheet(self.stream, offset, url)
                    self.bytes += len(sheet[0])
                except Exception:  # an unreadable sheet is one that did not load
                    sheet = None
            self.read[url] = sheet
        return self.read[url]
