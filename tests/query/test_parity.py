"""search.js ranks exactly as the Python engine: same terms, hits, scores, order, counts.

Every query runs through :func:`generator.query.run_query` and through ``search.js`` in
headless Chromium (the Debian ``chromium`` driven by Playwright, never a downloaded build),
loaded from ``file://`` with the search index embedded in ``tests/query/harness.html``; the
two traces (or the two errors) must be equal, field for field. The folding itself is compared
for every assigned code point.

Skipped only when Playwright cannot be imported or Chromium cannot be launched.
"""

from __future__ import annotations

import json
import random
import shutil
import unicodedata
from pathlib import Path

import pytest

from generator.errors import DevContextError
from generator.query import run_query
from generator.query.search_index import build_search_index, embedded_script
from generator.query.terms import fold, split_terms

ROOT = Path(__file__).resolve().parents[2]
SEARCH_JS = ROOT / "templates" / "static" / "search.js"
HARNESS = Path(__file__).with_name("harness.html")
# The browser is the suite's one Chromium (tests/browserkit.py's session fixture), so this
# module and the site's browser tests can run in one session in either order.

#: Code points whose general category changed between Python 3.11's Unicode 14.0 and the
#: browser's later Unicode (U+1171E AHOM CONSONANT SIGN MEDIAL RA: Mn → Mc in 15.0, so
#: Python drops it as an accent and the browser keeps it). Documented in terms.py.
UNICODE_DRIFT = {"U+1171E"}


def harness_page(browser, index, directory: Path, url_for=None):
    """A page on file:// with the index embedded and search.js beside it."""
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(SEARCH_JS, directory / "search.js")
    data = build_search_index(index, url_for=url_for)
    html = HARNESS.read_text(encoding="utf-8").replace("<!--SEARCH-INDEX-->", embedded_script(data))
    page_path = directory / "harness.html"
    page_path.write_text(html, encoding="utf-8")
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_path.as_uri())
    page.wait_for_function("() => window.harness !== undefined")
    assert not errors, errors
    return page


def python_side(index, value, limit):
    params = {"kind": "text", "value": value}
    if limit is not None:
        params["limit"] = limit
    try:
        return {"trace": json.loads(json.dumps(run_query(index, params).wire()))}
    except DevContextError as exc:
        return {"error": {"field": exc.field, "message": exc.message}}


def run_in_page(page, cases):
    return json.loads(page.evaluate("text => harness.run(text)", json.dumps(cases)))


def compare(page, index, cases):
    js = run_in_page(page, [[v, lim] for v, lim in cases])
    assert len(js) == len(cases)
    for (value, limit), got in zip(cases, js):
        want = python_side(index, value, limit)
        assert got == want, f"value={value!r} limit={limit!r}"
    return js


WORDS = ["eval", "gate", "cache", "reading", "stale", "station", "nimbus", "export", "history",
         "Café", "CAFE", "café", "naïve", "naive", "coöperation", "straße", "STRASSE", "strasse",
         "ΟΔΟΣ", "οδος", "οδός", "σοφιας", "İstanbul", "istanbul", "ıssız", "缓存", "过期策略",
         "缓", "評估", "评估", "검색", "한국어", "हिन्दी", "खोज", "ハート", "ハード", "はーと",
         "検索", "поиск", "ПОИСК", "елка", "Ёлка", "بحث", "ﬁle", "file", "ＦＵＬＬ", "full",
         "eval", "①", "1", "Ångström", "angstrom", "Ω", "ωmega", "µ", "μ", "mañana", "manana",
         "the", "a", "of", "to", "x", "</script>", "<!--", "&amp;", "zero\u200bwidth", "soft",
         "🎉", "🚀", "👩‍👩‍👧", "🇫🇷", "e\u0301", "é", "I0001", "i0014", "adr-0004", "m1",
         "project.units-are-si@1", "lib/cache.py", "_", "—", "…", "\t", "\n", " "]

FIXED_CASES: list[tuple[str, str | None]] = [
    ("eval gate", None), ("EVAL GATE", None), ("EvAl   gAtE", None), ("eval-gate", None),
    ("eval,gate;eval.gate", None), ("eval eval eval gate gate", None), ("gate eval", None),
    ("stale cache reading", None), ("stale cache reading", "1"), ("stale cache reading", "3"),
    ("cache", "100"), ("cache", "101"), ("cache", "999999999"), ("cache", "1000000000"),
    ("cache", "0"), ("cache", "-3"), ("cache", "-0"), ("cache", "007"), ("cache", "abc"),
    ("cache", ""), ("cache", " 5"), ("cache", "5.0"), ("cache", "５"), ("", None), (" ", None),
    ("\t\n\r ", None), ("\u3000\u2028", None), ("!!!", None), ("🎉", None),
    ("🎉 party", None), ("🎉🚀 release", None), ("a", None), ("a an the of", None),
    ("x", None), ("xy", None), ("café", None), ("cafe", None), ("CAFÉ", None),
    ("cafe\u0301", None), ("缓存", None), ("缓", None), ("过期策略", None), ("strasse", None),
    ("straße", None), ("STRASSE", None), ("ΟΔΟΣ", None), ("οδος", None), ("σοφίας", None),
    ("İSTANBUL", None), ("istanbul", None), ("ıssız", None), ("한국", None), ("검색", None),
    ("हिन्दी", None), ("खोज", None), ("ハート", None), ("ハード", None), ("テキスト検索", None),
    ("ﬁle", None), ("file", None), ("ｆｕｌｌｗｉｄｔｈ", None), ("FULLWIDTH", None),
    ("①", None), ("angstrom Å Å", None), ("ω Ω Ω", None), ("µ μ", None), ("поиск", None),
    ("ЁЛКА", None), ("елка", None), ("بحث", None), ("</script>", None), ("<!-- -->", None),
    ("&amp;", None), ("zero\u200bwidth", None), ("soft\u00adhyphen", None), ("mañana", None),
    ("検索", None), ("I0001", None), ("i0001", None), ("adr-0004", None), ("m1", None),
    ("lib/cache.py", None), ("project.units-are-si@1", None), ("\x00eval\x00", None),
    ("\ud83c\udf89 lone surrogates", None),
    (" ".join(f"term{i:02d}" for i in range(40)), None),
    ("eval " * 199 + "gate", None),
    ("e" * 1000, None), ("e" * 1001, None), ("é" * 1000, None), ("🎉" * 1001, None),
    ("the " + "cache " * 30 + "x y z", "2"),
]


def random_cases(seed: int, n: int) -> list[tuple[str, str | None]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(1, 6))]
        seps = [rng.choice([" ", "  ", "-", ", ", "\t", "/", "", "🎉"]) for _ in words]
        value = "".join(w + s for w, s in zip(words, seps))
        if rng.random() < 0.3:
            value = value.upper() if rng.random() < 0.5 else value.swapcase()
        limit = rng.choice([None, None, None, "1", "2", "5", "50", "150"])
        cases.append((value, limit))
    return cases


def test_demo_layer_parity(browser, demo_index, tmp_path):
    page = harness_page(browser, demo_index, tmp_path / "demo")
    results = compare(page, demo_index, FIXED_CASES + random_cases(1, 300))
    # The cases exercise what they claim to: hits, truncation, errors and empty answers.
    traces = [r["trace"] for r in results if "trace" in r]
    assert any(t["candidates_matched"] > len(t["hits"]) > 0 for t in traces)
    assert any(t["hits"] and t["candidates_matched"] == len(t["hits"]) for t in traces)
    assert any(t["candidates_scanned"] == 0 for t in traces)
    assert {r["error"]["field"] for r in results if "error" in r} == {"value", "limit"}


def test_unicode_layer_parity(browser, unicode_index, tmp_path):
    page = harness_page(browser, unicode_index, tmp_path / "unicode")
    results = compare(page, unicode_index, FIXED_CASES + random_cases(2, 300))
    by_value = {value: r for (value, limit), r in zip(FIXED_CASES, results) if limit is None}
    # Spot checks that the Unicode cases really match something.
    for value in ("cafe", "CAFÉ", "strasse", "οδος", "istanbul", "缓存", "검색", "हिन्दी",
                  "ハート", "file", "FULLWIDTH", "поиск", "بحث", "mañana"):
        assert by_value[value]["trace"]["hits"], value


def test_fold_parity_for_every_assigned_code_point(browser, demo_index, tmp_path):
    page = harness_page(browser, demo_index, tmp_path / "fold")
    points = [c for c in range(0x110000)
              if not 0xD800 <= c <= 0xDFFF and unicodedata.category(chr(c)) not in ("Cn", "Co")]
    values = [chr(c) for c in points] + ["ΟΔΟΣ ΣΑΣ Σ", "İIıi", "ẞß", "ǅǄǆ", "ﬃ ﬄ ﬅ", "Ⅻ ⅻ ℌ",
                                          "가각 ᄀ", "e\u0301\u0327", "\u0345\u03b9"]
    got = json.loads(page.evaluate("text => harness.fold(text)", json.dumps(values)))
    mismatched = set()
    for value, (js_fold, js_terms) in zip(values, got):
        if [fold(value), split_terms(fold(value))] != [js_fold, js_terms]:
            mismatched.add(f"U+{ord(value):04X}" if len(value) == 1 else value)
    assert mismatched <= UNICODE_DRIFT, sorted(mismatched)[:20]


def test_page_renders_the_trace_with_links(browser, unicode_index, tmp_path):
    page = harness_page(browser, unicode_index, tmp_path / "render",
                        url_for=lambda o: f"objects/{o.kind}/{o.identity}.html")
    page.fill("#search-input", "eval gate")
    page.wait_for_selector(".search-hit")
    trace = python_side(unicode_index, "eval gate", None)["trace"]
    assert page.inner_text(".search-query code") == trace["query"]
    hits = page.query_selector_all(".search-hit")
    assert len(hits) == len(trace["hits"])
    first = hits[0]
    assert first.query_selector("a").get_attribute("href") == "objects/issue/I0001.html"
    score = first.query_selector(".search-score").inner_text()
    assert score == f"score {trace['hits'][0]['score']}"
    assert first.query_selector(".search-why").inner_text() == trace["hits"][0]["why"]
    assert [li.inner_text() for li in page.query_selector_all(".search-order li")] == \
        trace["order_by"]
    counts = page.inner_text(".search-counts")
    assert f"of {trace['candidates_matched']} matched" in counts
    # Markup in a title is text, never HTML.
    page.fill("#search-input", "script")
    page.wait_for_selector("text=x</script><!-- not markup")
    page.fill("#search-input", "e" * 1001)
    page.wait_for_selector(".search-error")
    page.fill("#search-input", "   ")
    page.wait_for_function("() => !document.querySelector('#search-results').children.length")


def test_page_urls_survive_the_index(browser, unicode_index, tmp_path):
    """URLs are rebuilt from a kind's pattern where they fit it and carried where not."""
    def url_for(obj):
        if obj.kind == "issue":
            special = obj.identity == "I0007"
            return "special.html" if special else f"../o/{obj.kind}/{obj.identity}.html"
        return None if obj.kind == "manifest" else f"pages/{obj.uri.split('//')[1]}/"

    page = harness_page(browser, unicode_index, tmp_path / "urls", url_for=url_for)
    got = dict(json.loads(page.evaluate("() => harness.urls()")))
    assert got == {uri: url_for(obj) for uri, obj in unicode_index.objects.items()}


def test_initial_query_from_the_url(browser, unicode_index, tmp_path):
    page = harness_page(browser, unicode_index, tmp_path / "initial")
    page.goto(page.url + "?q=%E7%BC%93%E5%AD%98")  # ?q=缓存
    page.wait_for_selector(".search-hit")
    assert page.input_value("#search-input") == "缓存"
    assert "terms=[缓存]" in page.inner_text(".search-query")


def test_index_is_fetched_when_not_embedded(browser, demo_index, tmp_path):
    """Without the embedded element, search.js fetches api/v1/search-index.json relative to
    the page (served here by Playwright's routing, so no socket is opened)."""
    data = json.dumps(build_search_index(demo_index))
    html = HARNESS.read_text(encoding="utf-8").replace("<!--SEARCH-INDEX-->", "")
    files = {"/docs/page.html": (html, "text/html"),
             "/docs/search.js": (SEARCH_JS.read_text(encoding="utf-8"), "text/javascript"),
             "/docs/api/v1/search-index.json": (data, "application/json")}
    page = browser.new_page()
    requested = []

    def serve(route):
        path = route.request.url.split("http://site.test", 1)[1].split("?")[0]
        requested.append(path)
        if path in files:
            body, ctype = files[path]
            route.fulfill(status=200, body=body, content_type=ctype)
        else:
            route.fulfill(status=404, body="")

    page.route("http://site.test/**", serve)
    page.goto("http://site.test/docs/page.html")
    results = run_in_page(page, [["cache", None]])
    assert results[0] == python_side(demo_index, "cache", None)
    assert "/docs/api/v1/search-index.json" in requested
