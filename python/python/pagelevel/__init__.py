"""pagelevel: find the template of a single web page and extract its main text.

One call for the common case::

    import pagelevel

    text = pagelevel.extract(html)            # the article alone, like trafilatura's extract
    everything = pagelevel.content(html)      # all text that is not template
    page = pagelevel.score(html, url)         # every node's verdict, sections, texts (a dict)

Pages are laid out by Blitz in-process (``layout="native"``: no browser, a few ms a page) or
by headless Chromium (``layout="chromium"``, when installed). A page given as ``str`` or
``bytes`` has no directory, so only its inline styles apply; ``path=`` scores a saved page
with the stylesheets beside it (``web_root=`` names the folder a saved site's root-relative
URLs such as ``/css/site.css`` are read from; default, the page's own folder), and ``stylesheets={absolute URL: css}`` (a crawl's archived
CSS responses; ``css`` bytes, text, or ``(css, content_type)``) gives any page the sheets
it links and imports, never fetched: a URL missing from it stays unloaded.
:func:`linked_stylesheets` names the URLs a page links.

For many pages make one :class:`Scorer` and share it, also between threads: each call scores
with the GIL released on an engine of its own.

Training on a crawl: :func:`label_site` labels one host's pages with the site-level detector
and returns training rows (``TRAINING_COLUMNS``), the table ``pagelevel train --rows`` fits;
:func:`host_sample` names the pages it samples from a host's page count alone, so
``spark/label_hosts.py`` reads only the sampled bodies of a host before labelling it.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from ._pagelevel import TRAINING_COLUMNS, PageError, SiteError, host_sample, label_site, linked_stylesheets
from ._pagelevel import Scorer as _RustScorer

__all__ = [
    "PageError",
    "Scorer",
    "SiteError",
    "TRAINING_COLUMNS",
    "content",
    "extract",
    "host_sample",
    "label_site",
    "linked_stylesheets",
    "score",
]

Html = Union[str, bytes]
StrPath = Union[str, "os.PathLike[str]"]
Css = Union[bytes, str]
Stylesheets = Mapping[str, Union[Css, Tuple[Css, Optional[str]]]]


class Scorer(_RustScorer):
    """Scores pages with one model and one layout engine, reusing its engines across calls.

    Arguments (all but ``model`` and ``layout`` keyword-only) are those of
    ``pagelevel score``: ``model`` a model file (default: the one shipped for ``layout``),
    ``layout`` ``"native"`` or ``"chromium"``, ``threshold`` (default 0.25),
    ``penalty_scale``, ``penalty`` (``"area"``, ``"count"``, ``"parent-area"``), ``weight``
    (``"sqrt-area"``, ``"count"``), ``smooth``, ``content_floor``, ``chromium`` (the
    binary), ``max_bytes``, ``max_elements``, ``max_depth``, ``max_layout_memory`` (MiB one
    native layout may take, default 512: a page over it is laid out without its stylesheets
    or fails), and ``force`` (accept a model trained on another engine's layouts).

    Raises ``ValueError`` for a bad argument or model file and ``RuntimeError`` when
    ``layout="chromium"`` finds no Chromium.
    """

    def score(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
        web_root: Optional[StrPath] = None,
        charset: Optional[str] = None,
        stylesheets: Optional[Stylesheets] = None,
        nodes: bool = True,
    ) -> Dict[str, Any]:
        """Everything about a page: the object ``pagelevel score --format json`` writes.
        With ``nodes=False``, the line ``--format jsonl`` writes: all but the per-node list
        (``url``, ``title``, ``metadata``, ``page_type``, ``sections``, texts, ``template_text_share``,
        ``timings_ms``),
        several times cheaper to build for a page of thousands of elements.

        ``charset`` is the encoding ``bytes`` were served with (an HTTP ``Content-Type``
        charset, as a WARC record has it); it wins over the page's ``<meta charset>``.
        ``stylesheets`` (``{absolute URL: css}``) are what the page's stylesheet links and
        ``@import``\ s load, never the network. ``web_root`` (with ``path``) is the folder
        of a saved site the page's root-relative URLs are read from (default: its folder).

        ``nodes`` (every element's box, classifier score, smoothed templateness, verdict and
        section), ``metadata`` (headline, author, date, language, site name, … and where each
        came from), ``page_type`` (``type``: article, collection, documentation, forum,
        listing, product or service; ``probability``), ``sections``, ``threshold``,
        ``content_text``, ``main_text``,
        ``main_markdown``, ``comments``,
        ``template_text_share``, ``timings_ms`` (``pagelevel schema`` describes every field).
        Raises :class:`PageError` for a page that cannot be scored.
        """
        to_json = self.score_json if nodes else self.line_json
        return json.loads(to_json(html, url, path=path, web_root=web_root, charset=charset, stylesheets=stylesheets))


# The scorers of the one-call functions, one per distinct configuration, made on first use.
_shared: Dict[Tuple[Tuple[str, Any], ...], Scorer] = {}
_shared_lock = threading.Lock()


def _scorer(options: Dict[str, Any]) -> Scorer:
    key = tuple(sorted(options.items()))
    with _shared_lock:
        scorer = _shared.get(key)
        if scorer is None:
            scorer = _shared[key] = Scorer(**options)
        return scorer


def score(
    html: Optional[Html] = None,
    url: Optional[str] = None,
    *,
    path: Optional[StrPath] = None,
    web_root: Optional[StrPath] = None,
    charset: Optional[str] = None,
    stylesheets: Optional[Stylesheets] = None,
    nodes: bool = True,
    layout: str = "native",
    **options: Any,
) -> Dict[str, Any]:
    """Everything about one page, as :meth:`Scorer.score`; ``options`` are :class:`Scorer`'s;
    ``charset`` the encoding ``bytes`` were served with (beats the page's ``<meta charset>``);
    ``stylesheets`` the page's archived CSS by URL;
    ``nodes=False`` leaves out the per-node list (the ``--format jsonl`` line)."""
    scorer = _scorer(dict(options, layout=layout))
    return scorer.score(html, url, path=path, web_root=web_root, charset=charset, stylesheets=stylesheets, nodes=nodes)


def extract(
    html: Optional[Html] = None,
    url: Optional[str] = None,
    *,
    path: Optional[StrPath] = None,
    web_root: Optional[StrPath] = None,
    charset: Optional[str] = None,
    stylesheets: Optional[Stylesheets] = None,
    format: str = "text",
    links: bool = False,
    images: bool = False,
    layout: str = "native",
    **options: Any,
) -> str:
    """The main text of a page: the article or main body, headed by its headline, without
    comments, share bars, related links or menus. ``format="text"``: paragraphs separated by
    blank lines; ``format="markdown"``: with its headings, lists, tables, quotes, code and
    emphasis, and with ``links=True`` / ``images=True`` link targets and pictures."""
    scorer = _scorer(dict(options, layout=layout))
    if format == "markdown":
        return scorer.markdown(
            html, url, path=path, web_root=web_root, charset=charset, stylesheets=stylesheets, links=links, images=images
        )
    if format != "text":
        raise ValueError(f"format must be 'text' or 'markdown', not {format!r}")
    if links or images:
        raise ValueError("links and images need format='markdown'")
    return scorer.extract(html, url, path=path, web_root=web_root, charset=charset, stylesheets=stylesheets)


def content(
    html: Optional[Html] = None,
    url: Optional[str] = None,
    *,
    path: Optional[StrPath] = None,
    web_root: Optional[StrPath] = None,
    charset: Optional[str] = None,
    stylesheets: Optional[Stylesheets] = None,
    layout: str = "native",
    **options: Any,
) -> str:
    """The content text of a page: all visible text not marked template (the main text and
    also comments, share bars, related links)."""
    scorer = _scorer(dict(options, layout=layout))
    return scorer.content(html, url, path=path, web_root=web_root, charset=charset, stylesheets=stylesheets)
