"""Writes one WARC file per shared site (every HTML page under it, as an HTML response for
https://<site>/<path>), to run the Spark job over a crawl-like input.

    python spark/build_site_warcs.py ../shared/datasets/sites OUT_DIR
"""

import io
import sys
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


def main(sites: Path, output: Path) -> None:
    output.mkdir(parents=True, exist_ok=True)
    total = 0
    for site in sorted(path for path in sites.iterdir() if path.is_dir()):
        pages = sorted(path for path in site.rglob("*") if path.suffix.lower() in (".html", ".htm"))
        with open(output / f"{site.name}.warc.gz", "wb") as stream:
            writer = WARCWriter(stream, gzip=True)
            for page in pages:
                url = f"https://{site.name}/{page.relative_to(site).as_posix()}"
                headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
                writer.write_record(
                    writer.create_warc_record(url, "response", payload=io.BytesIO(page.read_bytes()), http_headers=headers)
                )
        total += len(pages)
    print(f"{total} pages in {output}", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
