"""The milestone picture on random graphs: well-formed SVG, every edge joins two drawn
boxes at their borders, no two boxes overlap, the same bytes every time."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings, strategies as st

from generator.site.plan.picture import connected, plan_picture
from generator.site.svg import STATE_COLORS

SVG = "{http://www.w3.org/2000/svg}"


@st.composite
def milestone_graphs(draw):
    n = draw(st.integers(min_value=1, max_value=14))
    ids = [f"m{i:02d}" for i in range(n)]
    edges = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=20))
    titles = draw(st.lists(st.text("abc de-fgh <&>", min_size=1, max_size=120),
                           min_size=n, max_size=n))
    nodes = [{"id": i, "label": t, "sub": i, "href": f"#m-{i}", "counts": {"READY": k % 3}}
             for k, (i, t) in enumerate(zip(ids, titles))]
    return nodes, edges


@settings(max_examples=60, deadline=None)
@given(milestone_graphs())
def test_any_graph_draws_legibly(graph):
    nodes, edges = graph
    svg = plan_picture(nodes, edges, STATE_COLORS)
    assert svg == plan_picture(nodes, edges, STATE_COLORS)
    linked = {x for a, b in edges if a != b for x in (a, b)}
    if not linked:
        assert svg == ""
        return
    root = ET.fromstring(svg)
    boxes = {g.get("data-id"): tuple(float(g.find(SVG + "rect").get(k))
                                     for k in ("x", "y", "width", "height"))
             for g in root.iter(SVG + "g")}
    assert set(boxes) == linked
    for path in root.iter(SVG + "path"):
        if "dep" not in (path.get("class") or ""):
            continue
        pts = [tuple(map(float, p.split(",")))
               for p in re.findall(r"[-\d.]+,[-\d.]+", path.get("d"))]
        for (px, py), key in ((pts[0], "data-from"), (pts[-1], "data-to")):
            x, y, w, h = boxes[path.get(key)]
            assert x - 1 <= px <= x + w + 1 and min(abs(py - y), abs(py - y - h)) <= 1
    ids = sorted(boxes)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            (ax, ay, aw, ah), (bx, by, bw, bh) = boxes[a], boxes[b]
            assert not (ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah), (a, b)


def test_connected_groups():
    assert connected(["a", "b", "c", "d"], [("b", "a"), ("d", "d")]) == [["a", "b"], ["c"], ["d"]]
