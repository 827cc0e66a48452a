"""Types of the Rust extension module; `pagelevel` re-exports and documents them."""

from os import PathLike
from typing import Literal, Optional, Union

Html = Union[str, bytes]
StrPath = Union[str, PathLike[str]]

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
        force: bool = False,
    ) -> "Scorer": ...
    @property
    def layout(self) -> str: ...
    @property
    def threshold(self) -> float: ...
    def score_json(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
    ) -> str: ...
    def extract(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
    ) -> str: ...
    def content(
        self,
        html: Optional[Html] = None,
        url: Optional[str] = None,
        *,
        path: Optional[StrPath] = None,
    ) -> str: ...
