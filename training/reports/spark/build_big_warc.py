"""One host of N pages: the shared sqlite-website pages under 16 KB, cycled, each under a URL of
its own (https://big.example/N/name). Usage: python build_big_warc.py SITES_DIR N OUT.warc.gz"""
import io
import sys
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

sites, count, out = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pages = sorted(p for p in (sites / "sqlite-website").rglob("*.html") if p.stat().st_size < 16 * 1024)
bodies = [(p.name, p.read_bytes()) for p in pages]
with open(out, "wb") as stream:
    writer = WARCWriter(stream, gzip=True)
    for index in range(count):
        name, body = bodies[index % len(bodies)]
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
        record = writer.create_warc_record(
            f"https://big.example/{index}/{name}", "response", payload=io.BytesIO(body), http_headers=headers
        )
        writer.write_record(record)
print(f"{count} pages ({len(bodies)} distinct bodies) in {out}", file=sys.stderr)
