"""The milestone dependency picture: an SVG drawn at build time, no script.

Layout by `grandalf <https://pypi.org/project/grandalf/>`_'s Sugiyama layout (layers,
crossing reduction, dummy points for long edges) rather than a hand-written one. It is pure
Python with no dependency of its own, so ``pip install devcontext-site`` alone draws the
picture on every machine; Graphviz ``dot`` would draw prettier splines but is a system binary
a user may not have, and an optional fallback would give two pictures to test and keep.

Legibility at 65 milestones: each connected group of milestones is laid out on its own and
the groups are packed in rows (largest first); milestones that depend on none and that none
depends on carry no arrow, so they are left out of the picture (the page lists them). Every
box shows the full title, wrapped, with a state bar, and links to the milestone's section.
Edges run from a prerequisite (above) to the milestone that depends on it (below).
"""

from __future__ import annotations

import textwrap

from html import escape
from typing import Mapping, Sequence

from grandalf.graphs import Edge, Vertex, graph_core
from grandalf.layouts import SugiyamaLayout

from .chains import back_edges

__all__ = ["PictureNode", "plan_picture", "connected"]

BOX_W = 200
LINE_H = 14
CHARS = 28  # a 12px sans-serif line of this many characters fits a box
PAD = 12
GAP = 28
LAYER_GAP = 28

#: A milestone as the picture needs it: ``id``, ``label`` (full title), ``sub`` (its
#: identifier), ``href``, ``counts`` (state -> issues), ``tooltip``, ``critical`` (bool).
PictureNode = Mapping[str, object]


def connected(ids: Sequence[str], edges: Sequence[tuple[str, str]]) -> list[list[str]]:
    """The weakly connected groups of ``ids`` (sorted, each sorted by its first member)."""
    parent = {i: i for i in ids}

    def root(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in edges:
        if a in parent and b in parent:
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for i in sorted(ids):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())


def plan_picture(nodes: Sequence[PictureNode], edges: Sequence[tuple[str, str]],
                 colors: Mapping[str, str], width: int = 1120) -> str:
    """The SVG of every milestone that has a dependency edge. ``edges``: (dependent,
    prerequisite) between ids of ``nodes``; others are ignored. ``colors``: state -> fill.
    Empty string when no milestone depends on another."""
    by_id = {str(n["id"]): n for n in nodes}
    pairs = sorted({(a, b) for a, b in edges if a in by_id and b in by_id and a != b})
    linked = sorted({x for pair in pairs for x in pair})
    if not linked:
        return ""
    boxes = {i: _box_height(by_id[i]) for i in linked}
    drawn = [_layout(group, [p for p in pairs if p[0] in group], boxes)
             for group in connected(linked, pairs)]
    drawn.sort(key=lambda g: (-g["w"] * g["h"], g["ids"][0]))
    placed, total_w, total_h = _pack(drawn, width)
    out = [f'<svg class="plan-graph" viewBox="0 0 {total_w} {total_h}" width="{total_w}" '
           f'height="{total_h}" role="img" aria-labelledby="plan-graph-title" '
           'xmlns="http://www.w3.org/2000/svg">',
           '<title id="plan-graph-title">'
           f'{escape(_picture_title(len(linked), len(pairs)))}</title>',
           '<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" '
           'markerHeight="8" markerUnits="userSpaceOnUse" orient="auto">'
           '<path d="M0,0 L8,4 L0,8 z" class="arrowhead"/>'
           '</marker></defs>']
    for group, (ox, oy) in placed:
        for (dependent, prereq), points in group["edges"]:
            critical = by_id[dependent].get("critical") and by_id[prereq].get("critical")
            d = " ".join(f"{'M' if k == 0 else 'L'}{x + ox:.0f},{y + oy:.0f}"
                         for k, (x, y) in enumerate(points))
            out.append(f'<path class="dep{" critical" if critical else ""}" '
                       f'data-from="{escape(prereq)}" data-to="{escape(dependent)}" d="{d}" '
                       'marker-end="url(#arrow)"/>')
        for i, (x, y) in group["xy"].items():
            out.append(_node(by_id[i], x + ox, y + oy, boxes[i], colors))
    out.append("</svg>")
    return "".join(out)


def _picture_title(n_nodes: int, n_edges: int) -> str:
    from ..i18n import format_count, ngettext

    nodes = ngettext("{n} milestone", "{n} milestones", n_nodes).format(n=format_count(n_nodes))
    arrows = ngettext("{n} dependency", "{n} dependencies", n_edges).format(
        n=format_count(n_edges))
    return f"{nodes}, {arrows}"


def _lines(node: PictureNode) -> list[str]:
    return textwrap.wrap(str(node["label"]), CHARS, break_on_hyphens=False) or [""]


def _sub_lines(node: PictureNode) -> list[str]:
    # identifiers are slugs: wrap them at their hyphens (mono 11px: 30 characters a line)
    return textwrap.wrap(str(node.get("sub", "")), 30, break_on_hyphens=True) or [""]


def _box_height(node: PictureNode) -> int:
    # the identifier, the wrapped title, the state bar
    return 8 + (len(_sub_lines(node)) + len(_lines(node))) * LINE_H + 16


class _View:
    def __init__(self, w: float, h: float) -> None:
        self.w, self.h = w, h
        self.xy = (0.0, 0.0)


class _EdgeView:
    def setpath(self, points) -> None:
        self.points = points


def _layout(ids: list[str], pairs: list[tuple[str, str]], boxes: Mapping[str, int]) -> dict:
    """One connected group laid out by grandalf, moved so its box starts at (0, 0)."""
    vertex = {i: Vertex(i) for i in ids}
    for i in ids:
        vertex[i].view = _View(BOX_W, boxes[i])
    # grandalf's edges run top to bottom: prerequisite -> dependent
    edge = {(a, b): Edge(vertex[b], vertex[a]) for a, b in pairs}
    for e in edge.values():
        e.view = _EdgeView()
    # graph_core, not Graph: Graph gathers a component's edges in a set (ordered by memory
    # address), which would make the drawing differ between builds
    component = graph_core([vertex[i] for i in ids], [edge[p] for p in pairs])
    deps = {i: [b for a, b in pairs if a == i] for i in ids}
    cut = back_edges(deps)
    roots = [vertex[i] for i in ids if not [b for b in deps[i] if (i, b) not in cut]]
    sug = SugiyamaLayout(component)
    sug.xspace, sug.yspace = GAP, LAYER_GAP
    sug.init_all(roots=roots, inverted_edges=[edge[p] for p in pairs if p in cut])
    sug.draw()
    corners = {i: (vertex[i].view.xy[0] - BOX_W / 2, vertex[i].view.xy[1] - boxes[i] / 2)
               for i in ids}
    min_x = min(x for x, _ in corners.values())
    min_y = min(y for _, y in corners.values())
    max_x = max(x + BOX_W for x, _ in corners.values())
    max_y = max(y + boxes[i] for i, (_, y) in corners.items())
    xy = {i: (x - min_x, y - min_y) for i, (x, y) in corners.items()}
    routed = []
    for (a, b), e in edge.items():
        points = [(x - min_x, y - min_y) for x, y in e.view.points]
        (bx, by), (ax, ay) = xy[b], xy[a]
        if _dist(points[0], (ax, ay)) < _dist(points[0], (bx, by)):
            points.reverse()  # grandalf hands a cut (cycle) edge back the other way round
        # from the prerequisite's side facing the dependent to the dependent's facing side
        down = ay >= by
        points[0] = (bx + BOX_W / 2, by + boxes[b] if down else by)
        points[-1] = (ax + BOX_W / 2, ay if down else ay + boxes[a])
        routed.append(((a, b), points))
    return {"ids": ids, "xy": xy, "edges": routed, "w": max_x - min_x, "h": max_y - min_y}


def _dist(p: tuple[float, float], q: tuple[float, float]) -> float:
    return abs(p[0] - q[0]) + abs(p[1] - q[1])


def _pack(groups: list[dict], width: int
          ) -> tuple[list[tuple[dict, tuple[float, float]]], int, int]:
    """Groups in rows no wider than ``width`` (a group wider than it gets a row alone)."""
    placed = []
    x = y = row_h = 0.0
    widest = 0.0
    for g in groups:
        if x > 0 and x + g["w"] > width - 2 * PAD:
            x, y, row_h = 0.0, y + row_h + GAP * 1.5, 0.0
        placed.append((g, (PAD + x, PAD + y)))
        x += g["w"] + GAP * 1.5
        row_h = max(row_h, g["h"])
        widest = max(widest, x - GAP * 1.5)
    return placed, int(widest + 2 * PAD + 1), int(y + row_h + 2 * PAD + 1)


def _node(node: PictureNode, x: float, y: float, h: int, colors: Mapping[str, str]) -> str:
    counts: Mapping[str, int] = node.get("counts", {})  # type: ignore[assignment]
    total = sum(counts.values())
    cls = "node critical" if node.get("critical") else "node"
    out = [f'<a href="{escape(str(node["href"]))}"><g class="{cls}" '
           f'data-id="{escape(str(node["id"]))}">'
           f'<title>{escape(str(node.get("tooltip") or node["label"]))}</title>'
           f'<rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" height="{h}" rx="5"/>']
    subs = _sub_lines(node)
    # an identifier wrapped over lines is the layer's word too, in pieces
    out.append(f'<text class="sub" x="{x + 8:.0f}" y="{y + 4 + LINE_H - 3:.0f}"'
               + (' translate="no">' if len(subs) > 1 else '>'))
    for k, line in enumerate(subs):
        out.append(f'<tspan x="{x + 8:.0f}" dy="{0 if k == 0 else LINE_H}">{escape(line)}</tspan>')
    # the title is the layer's own words, cut into lines a checker cannot match whole
    out.append(f'</text><text x="{x + 8:.0f}" y="{y + 4 + (len(subs) + 1) * LINE_H - 3:.0f}" '
               'translate="no">')
    for k, line in enumerate(_lines(node)):
        out.append(f'<tspan x="{x + 8:.0f}" dy="{0 if k == 0 else LINE_H}">{escape(line)}</tspan>')
    out.append("</text>")
    bar_y = y + h - 12
    if total:
        bx, bw = x + 8, BOX_W - 16
        for state, color in colors.items():
            n = counts.get(state, 0)
            if n:
                w = bw * n / total
                out.append(f'<rect x="{bx:.1f}" y="{bar_y:.0f}" width="{w:.1f}" height="6" '
                           f'fill="{color}"/>')
                bx += w
    else:
        out.append(f'<rect class="empty-bar" x="{x + 8:.0f}" y="{bar_y:.0f}" '
                   f'width="{BOX_W - 16}" height="6"/>')
    out.append("</g></a>")
    return "".join(out)
