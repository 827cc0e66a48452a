"""Types of the Rust extension module; `pagelevel` re-exports and documents them."""

from os import PathLike
from typing import List, Literal, Mapping, Optional, Sequence, Tuple, Union

Html = Union[str, bytes]
StrPath = Union[str, PathLike[str]]
Css = Union[bytes, str]
Stylesheets = Mapping[str, Union[Css, Tuple[Css, Optional[str]]]]
"""Archived stylesheets by absolute URL: CSS, or (CSS, Content-Type); never fetched."""

class PageError(ValueError):
    """A page that cannot be scored (empty, binary, beyond the limits, layout failed)."""

class Scorer:
    def __new__(
        cls,
        model: Optional[StrPath] = None,
        layout: Literal["native", "chromium"] = "native",
        *,
        threshold: Optional[float] = None,
        penalty_scale: Optional[float] = None,
        penalty: Literal["area", "count", "parent-area"] = "area",
        weight: Literal["sqrt-area", "count"] = "sqrt-area",
        smooth: bool = True,
        content_floor: bool = True,
        chromium: Optional[StrPath] = None,
        max_bytes: Optional[int] = None,
        max_elements: Optional[int] = None,
        max_depth: Optional[int] = None,
        max_layout_memory: Optional[int] = None,
        force: bool = False,
    ) -> "Scorer": ...
    @property
    def layout(self) -> str: ...
    @property
    def threshold(self) -> float: ...
    def line_json(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
        web_root: Optional[StrPath] = None,
        charset: Optional[str] = None,
        stylesheets: Optional[Stylesheets] = None,
    ) -> str: ...
    def score_json(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
        web_root: Optional[StrPath] = None,
        charset: Optional[str] = None,
        stylesheets: Optional[Stylesheets] = None,
    ) -> str: ...
    def extract(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
        web_root: Optional[StrPath] = None,
        charset: Optional[str] = None,
        stylesheets: Optional[Stylesheets] = None,
    ) -> str: ...
    def markdown(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
        web_root: Optional[StrPath] = None,
        charset: Optional[str] = None,
        stylesheets: Optional[Stylesheets] = None,
        links: bool = False,
        images: bool = False,
    ) -> str: ...
    def content(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
        web_root: Optional[StrPath] = None,
        charset: Optional[str] = None,
        stylesheets: Optional[Stylesheets] = None,
    ) -> str: ...

class SiteError(ValueError):
    """A site that cannot be labelled (fewer usable pages than min_pages, detector failed)."""

TRAINING_COLUMNS: List[str]
"""The columns of a training row: site, domain, layout, page, area, template, features..."""

def label_site(
    pages: Sequence[Tuple[str, bytes, Optional[str]]],
    *,
    host: str,
    name: Optional[str] = None,
    layout: Literal["native", "chromium"] = "native",
    max_pages: int = 200,
    min_pages: int = 10,
    theta: float = 0.1,
    labeler: Literal["frequency", "pagelets", "rtdm", "msa"] = "frequency",
    seed: int = 7,
    chromium: Optional[StrPath] = None,
    sampled: bool = False,
    stylesheets: Optional[Stylesheets] = None,
) -> List[Tuple[object, ...]]:
    """Training rows of one host's pages ((url, bytes, charset) in archive order): a seeded
    sample of max_pages, laid out, labelled by the site-level detector; one tuple per
    classified node, in TRAINING_COLUMNS order, as `pagelevel train --rows-out` writes them.
    With sampled=True the pages are already the sample (host_sample's pages, in its order).
    stylesheets (the host's archived CSS by URL) style every page that links them."""

def linked_stylesheets(html: bytes, url: str, *, charset: Optional[str] = None) -> List[str]:
    """The absolute URLs of the stylesheets a page links (<link rel=stylesheet>, document
    order, each once), resolved against its <base href>, else url; @imports not followed."""

def host_sample(count: int, *, host: str, max_pages: int = 200, seed: int = 7) -> List[int]:
    """The sample label_site draws from a host's count pages in archive order: the indices of
    the pages kept, in sample order (at most max_pages). Needs the count only, not the pages."""
