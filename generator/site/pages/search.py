"""Search: the index the page's script ranks (``api/v1/search-index.json``, the query
engine's own) and the page (``search.html``), which carries the same index inline so it
works from ``file://``."""

from __future__ import annotations

from ...jsonio import canonical_plain_json
from ...query.search_index import build_search_index
from ...query.text import TEXT_ORDER_BY
from .. import urls
from ..i18n import _
from .kit import PageKit

__all__ = ["search_index", "search_json", "search_page"]


def search_index(kit: PageKit) -> dict:
    return build_search_index(kit.index, url_for=lambda obj: urls.object_page(obj.uri))


def search_json(kit: PageKit) -> bytes:
    return canonical_plain_json(search_index(kit))


def search_page(kit: PageKit, index_json: bytes) -> bytes:
    return kit.render("search.html", "search.html", title=_("Search"),
                      search_json=index_json.decode("utf-8").rstrip("\n"),
                      order_by={rule: _(rule) for rule in TEXT_ORDER_BY})
