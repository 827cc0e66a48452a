"""trafilatura's Markdown of every page of a folder, for structure.py: one NAME.md per page.

    python trafilatura_markdown.py PAGES_DIR OUT_DIR   (trafilatura 2.3.1; tables and formatting on)
"""

import pathlib
import sys

import trafilatura

pages, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
for page in sorted(pages.glob("*.html")):
    html = page.read_bytes()
    markdown = trafilatura.extract(
        html,
        output_format="markdown",
        include_tables=True,
        include_formatting=True,
        include_comments=False,
        include_links=False,
        include_images=False,
    )
    (out / f"{page.stem}.md").write_text(markdown or "", encoding="utf-8")
