"""Writes the seed inputs of every fuzz target into fuzz/corpus/<target>/ from real inputs:
pages and gold files of the shared datasets, the shipped models, and WARC records built here
the way warcio writes them. After fuzzing, `cargo fuzz cmin` keeps only the inputs that add
coverage (README.md).

    python3 fuzz/seed_corpora.py /work/shared/datasets
"""

import gzip
import json
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
# Seeds are cut to the target's -max_len (README.md); longer inputs would be cut by libFuzzer.
MAX_LEN = {
    "page": 64 * 1024,
    "warc": 64 * 1024,
    "smoothing": 16 * 1024,
    "model": 32 * 1024,
    "robots": 16 * 1024,
    "eval_annotations": 64 * 1024,
}


def write(target: str, name: str, data: bytes) -> None:
    folder = FUZZ / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data[: MAX_LEN[target]])


def page_seeds(datasets: Path) -> None:
    write("page", "hostile.html", (REPO / "tests/fixtures/hostile.html").read_bytes())
    for relative in [
        "sites/cmake-docs-sphinx/policy/CMP0000.html",
        "sites/sdl2-api-doxygen/d1/d16/struct_s_d_l___display_mode.html",
        "sites/httrack-website/contact.html",  # iso-8859-1, declared in <meta>
        "labeled/cleaneval/input/dev-47.html",  # not UTF-8, nothing declared
        "labeled/cleaneval/input/dev-41.html",  # windows-1252
    ]:
        write("page", Path(relative).name, (datasets / relative).read_bytes())
    # Served with an HTTP charset (the harness reads a leading `charset=` line as one).
    write("page", "http-charset.html", b"charset=shift_jis\n<p>\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd</p>")
    write("page", "utf16.html", "\ufeff<title>T</title><p>h\u00e9llo</p>".encode("utf-16-le"))


def warc_record(warc_type: str, uri: str, block: bytes) -> bytes:
    header = (
        f"WARC/1.1\r\nWARC-Type: {warc_type}\r\nWARC-Target-URI: {uri}\r\n"
        f"WARC-Date: 2024-05-01T12:00:00Z\r\nContent-Length: {len(block)}\r\n\r\n"
    )
    return header.encode() + block + b"\r\n\r\n"


def http(status: str, headers: list[str], body: bytes) -> bytes:
    return (f"HTTP/1.1 {status}\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n").encode() + body


def chunked(body: bytes) -> bytes:
    middle = len(body) // 2
    parts = [body[:middle], body[middle:], b""]
    return b"".join(f"{len(p):x}\r\n".encode() + p + b"\r\n" for p in parts)


def warc_seeds(datasets: Path) -> None:
    page = (datasets / "sites/cmake-docs-sphinx/policy/CMP0000.html").read_bytes()[:6000]
    records = [
        warc_record("warcinfo", "", b"software: seed_corpora.py\r\n"),
        warc_record("request", "https://example.org/", b"GET / HTTP/1.1\r\nHost: example.org\r\n\r\n"),
        warc_record("response", "https://example.org/", http("200 OK", ["Content-Type: text/html; charset=utf-8"], page)),
        warc_record(
            "response",
            "<https://example.org/gz>",
            http(
                "200 OK",
                ["Content-Type: text/html", "Content-Encoding: gzip", "Transfer-Encoding: chunked"],
                chunked(gzip.compress(b"<p>compressed and chunked</p>")),
            ),
        ),
        warc_record("response", "https://example.org/gone", http("404 Not Found", ["Content-Type: text/html"], b"<p>no</p>")),
        warc_record("response", "https://example.org/a.css", http("200 OK", ["Content-Type: text/css"], b"p{}")),
        warc_record("revisit", "https://example.org/", b""),
        warc_record("response", "https://example.org/sniffed", http("200 OK", [], b"<!doctype html><p>no type</p>")),
    ]
    write("warc", "crawl.warc", b"".join(records))
    write("warc", "crawl.warc.gz", b"".join(gzip.compress(r) for r in records))
    wrong_length = records[2].replace(b"Content-Length: ", b"Content-Length: 1", 1)
    write("warc", "wrong-length.warc", records[0] + wrong_length + records[3])
    write("warc", "truncated.warc", b"".join(records)[:-200])


def smoothing_seeds() -> None:
    problems = {
        "single.json": {"parent": [-1], "score": [0.3], "penalty": [0.1]},
        "chain.json": {"parent": [-1, 0, 1, 2, 3], "score": [0.9, 0.1, 0.8, 0.2, 0.7], "penalty": [0.5, 0.1, 0.1, 0.1, 0.1]},
        "page-like.json": {
            "parent": [-1, 0, 0, 1, 1, 2, 2, 2, 5, 5],
            "score": [0.5, 0.9, 0.2, 0.95, 0.85, 0.1, 0.15, 0.3, 0.05, 0.6],
            "weight": [1, 3, 2, 1, 1, 4, 1, 1, 2, 1],
            "penalty": [0.02, 0.4, 0.3, 1.2, 1.2, 0.5, 2.0, 2.0, 3.5, 3.5],
        },
        "unordered-parents.json": {"parent": [2, 2, -1, 0], "score": [0.4, 0.6, 0.5, 0.0], "penalty": [0, 1, 0, 0.25]},
    }
    for name, problem in problems.items():
        write("smoothing", name, json.dumps(problem).encode())


def model_seeds() -> None:
    for name in ["default.json", "native.json"]:
        model = json.loads((REPO / "models" / name).read_text())
        write("model", name, json.dumps(model, separators=(",", ":")).encode())
        # Fewer digits: the same model in a third of the bytes, so mutations reach every field.
        rounded = json.loads(json.dumps(model), parse_float=lambda text: round(float(text), 3))
        write("model", "rounded-" + name, json.dumps(rounded, separators=(",", ":")).encode())


def robots_seeds() -> None:
    files = {
        "groups.txt": "User-agent: *\nDisallow: /private/\nAllow: /private/ok$\nCrawl-delay: 2.5\n\n"
        "User-agent: pagelevel\nUser-agent: other\nDisallow: /*.pdf$\nDisallow: /search?q=*\nSitemap: https://example.org/s.xml\n",
        "escapes.txt": "user-agent: PAGELEVEL/1.0 # comment\ndisallow: /caf%c3%a9\nallow: /a%2Fb\ndisallow: /café/menu\n",
        "everything.txt": "User-agent: *\nDisallow: /\nAllow: /robots.txt\nAllow: /$\n",
        "wildcards.txt": "User-agent: *\nDisallow: /*a*b*c*d*e*f*g*h*\nDisallow: *\nAllow: /**/x\nCrawl-delay: 99999\n",
    }
    for name, text in files.items():
        write("robots", name, text.encode())


def eval_seeds(datasets: Path) -> None:
    labeled = datasets / "labeled"
    for relative in [
        "dragnet/Corrected/109.html.corrected.txt",  # windows-1252
        "dragnet/Corrected/42.html.corrected.txt",  # UTF-16LE with a BOM
        "cleaneval/gold/dev-1.txt",  # URL line and structure markers
        "big9/nypost/gold/2017-church.txt",
        "kreuzer/popular-abcnews.go.com/meta.json",
        "kreuzer/popular-abcnews.go.com/index.blocks.html",
        "big9/pages.tsv",
    ]:
        write("eval_annotations", relative.replace("/", "_"), (labeled / relative).read_bytes())
    annotated = sorted((labeled / "l3s-gn1/annotated").iterdir(), key=lambda p: p.stat().st_size)[0]
    write("eval_annotations", "l3s-annotated.html", annotated.read_bytes())
    dragnet_comments = next(
        p for p in sorted((labeled / "dragnet/Corrected").iterdir()) if b"COMMENTS" in p.read_bytes()[:20000]
    )
    write("eval_annotations", "dragnet-comments.txt", dragnet_comments.read_bytes())
    write(
        "eval_annotations",
        "native-labels.json",
        b'{"version":1,"pages":[{"html":"page.html","content_text":"gold.txt","comments_text":"gold.txt",'
        b'"site":"s","url":"https://example.org/"},{"html":"page.html","marked":true,"name":"m"}]}',
    )
    write(
        "eval_annotations",
        "native-marked.html",
        b'<body><nav data-pagelevel="template">Home <b data-pagelevel="content">Here</b></nav>'
        b"<p>Article text</p><footer data-pagelevel=TEMPLATE>(c)</footer></body>",
    )


def main(datasets: Path) -> None:
    page_seeds(datasets)
    warc_seeds(datasets)
    smoothing_seeds()
    model_seeds()
    robots_seeds()
    eval_seeds(datasets)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
