"""Times other extractors on the same pages as `bench.sh`: one process, pages read once, each
page's extraction timed alone. Prints per-page median / p95 ms and pages per second.

Usage: python time_extractors.py PAGE_LIST   (one HTML path per line)
Needs trafilatura and resiliparse (pip install trafilatura resiliparse).
"""
import statistics
import sys
import time


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    paths = [line.strip() for line in open(sys.argv[1]) if line.strip()]
    pages = [open(path, "rb").read().decode("utf-8", "replace") for path in paths]

    import trafilatura
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    extractors = {
        "trafilatura": lambda html: trafilatura.extract(html),
        "resiliparse": lambda html: extract_plain_text(HTMLTree.parse(html), main_content=True),
    }
    for name, extract in extractors.items():
        times = []
        started = time.perf_counter()
        for html in pages:
            page_started = time.perf_counter()
            extract(html)
            times.append((time.perf_counter() - page_started) * 1000)
        seconds = time.perf_counter() - started
        print(
            f"{name}: {len(pages)} pages, median {statistics.median(times):.1f} ms, "
            f"p95 {percentile(times, 0.95):.1f} ms, {len(pages) / seconds:.1f} pages/s (1 core)"
        )


if __name__ == "__main__":
    main()
