"""Writes one WARC file per shared site (every HTML page under it, as an HTML response for
https://<site>/<path>), to run the Spark jobs over a crawl-like input. With ``--with-css``, each
file also archives the site's stylesheets as ``text/css`` responses under the URLs its pages
link (resolved against the page's ``<base href>``, else its URL) and those sheets ``@import``,
as a crawl that fetched them would: a URL on the site's own host is the file at that path
under the site's folder, and so is one on another host (four sites link their CSS absolutely,
``https://www.highriskshop.com/...``: the folder is that host's root).

    python spark/build_site_warcs.py ../shared/datasets/sites OUT_DIR [--with-css]
"""

import argparse
import io
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, Optional
from urllib.parse import unquote, urljoin, urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from archived_css import imported_urls, without_fragment


class StylesheetLinks(HTMLParser):
    """The first ``<base href>`` and the ``<link rel=stylesheet href>`` values of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.base: Optional[str] = None
        self.hrefs: List[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag == "base" and self.base is None and "href" in attributes:
            self.base = attributes["href"].strip()
        rel = attributes.get("rel", "").lower().split()
        if tag == "link" and "stylesheet" in rel and attributes.get("href", "").strip():
            self.hrefs.append(attributes["href"].strip())


def linked_stylesheets(html: bytes, url: str) -> List[str]:
    parser = StylesheetLinks()
    parser.feed(html.decode("utf-8", "replace"))
    base = urljoin(url, parser.base) if parser.base else url
    return [without_fragment(urljoin(base, href)) for href in parser.hrefs]


def site_file(site: Path, url: str) -> Optional[Path]:
    """The file of the site's folder a stylesheet URL names (a saved name may keep the query)."""
    parts = urlsplit(url)
    relative = unquote(parts.path).lstrip("/")
    candidates = ([f"{relative}?{unquote(parts.query)}"] if parts.query else []) + [relative]
    root = site.resolve()
    for candidate in candidates:
        path = (root / candidate).resolve()
        if path.is_file() and root in path.parents:
            return path
    return None


def site_stylesheets(site: Path, pages: Dict[str, bytes]) -> Dict[str, bytes]:
    """The stylesheets the pages load, by URL, in the order first linked or imported."""
    sheets: Dict[str, bytes] = {}
    wanted = [sheet for url, html in pages.items() for sheet in linked_stylesheets(html, url)]
    while wanted:
        url = wanted.pop(0)
        if url in sheets or urlsplit(url).scheme not in ("http", "https"):
            continue
        path = site_file(site, url)
        if path is None:
            continue
        sheets[url] = path.read_bytes()
        wanted.extend(imported_urls(sheets[url], url))
    return sheets


def response(writer: WARCWriter, url: str, body: bytes, content_type: str):
    headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
    return writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers)


def main(sites: Path, output: Path, with_css: bool = False) -> None:
    output.mkdir(parents=True, exist_ok=True)
    total = sheets_total = 0
    for site in sorted(path for path in sites.iterdir() if path.is_dir()):
        files = sorted(path for path in site.rglob("*") if path.suffix.lower() in (".html", ".htm"))
        pages = {f"https://{site.name}/{page.relative_to(site).as_posix()}": page.read_bytes() for page in files}
        with open(output / f"{site.name}.warc.gz", "wb") as stream:
            writer = WARCWriter(stream, gzip=True)
            for url, body in pages.items():
                writer.write_record(response(writer, url, body, "text/html"))
            if with_css:
                sheets = site_stylesheets(site, pages)
                for url, css in sheets.items():
                    writer.write_record(response(writer, url, css, "text/css"))
                sheets_total += len(sheets)
        total += len(pages)
    css = f" and {sheets_total} stylesheets" if with_css else ""
    print(f"{total} pages{css} in {output}", file=sys.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", type=Path, help="the shared sites folder")
    parser.add_argument("output", type=Path, help="directory for the WARC files")
    parser.add_argument("--with-css", action="store_true", help="archive the stylesheets the pages load")
    arguments = parser.parse_args()
    main(arguments.sites, arguments.output, arguments.with_css)
