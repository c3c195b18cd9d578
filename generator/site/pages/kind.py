"""A kind's page (``kinds/<kind>.html``): every object of the kind, its state, its own
context and how many contexts reached it."""

from __future__ import annotations

from .. import urls
from ..contexts import SiteAnswers
from ..i18n import _
from .kit import PageKit

__all__ = ["kind_view", "kind_page"]


def kind_view(kit: PageKit, answers: SiteAnswers, kind: str, page: str) -> dict:
    rows = []
    for obj in sorted(kit.index.by_kind[kind], key=lambda o: o.uri):
        state = kit.index.issue_states.get(obj.uri)
        key = answers.context_of_uri.get(obj.uri)
        values = {"obj": obj, "href": urls.relative(page, urls.object_page(obj.uri)),
                  "state": state.state if state else None,
                  "context_href": kit.context_href(page, key) if key else None,
                  "reached": answers.standing_count(obj.uri)}
        rows.append(kit.row_html("kind_row", obj, values, (
            values["href"], values["state"], values["context_href"], values["reached"])))
    return {"kind": kind, "rows": rows}


def kind_page(kit: PageKit, answers: SiteAnswers, kind: str) -> bytes:
    page = urls.kind_page(kind)
    return kit.render("kind.html", page, title=_("Every {kind}").format(kind=kind),
                      **kind_view(kit, answers, kind, page))
