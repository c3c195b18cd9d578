/*
 * search.js — the site's static text search, with its EXPLAIN trace.
 *
 * Ranks exactly as the Python engine (generator/query/terms.py and text.py): the same
 * folding, the same terms, the same scores, the same tie-break, the same cap and the same
 * counts, so a query typed here answers what `devcontext query text` answers. Every constant
 * of the ranking (weights, term rules, stop words, limits, order_by wording) comes from the
 * search index itself; this file holds only the algorithm. tests/query/test_parity.py runs
 * both and compares the traces.
 *
 * No network beyond the index, no third-party code. The index is read from
 *   1. <script type="application/json" id="search-index"> in the page, when present (this
 *      is what works from file://, where fetch() of a local file fails), else
 *   2. the URL in this script tag's data-search-index attribute, else
 *   3. "api/v1/search-index.json", relative to the page.
 *
 * Page wiring (optional): an <input id="search-input"> (or the input of a
 * <form id="search-form">) and an element with id="search-results". The results re-render on every input; `?q=` in the page URL is the
 * initial query. The words the results are shown with come from
 * <script type="application/json" id="search-strings"> when the page has one (the site's
 * template fills it in the page's language: {"counts": "{shown} shown of …", ...}, named
 * fields in braces), else English; numbers are written for the page's <html lang>. The
 * trace itself (the query, each hit's why, the order_by rules, the errors) is the engine's
 * wire text and stays as the engine says it. For other uses the API is window.DevcontextSearch:
 *   load() -> Promise<prepared>, prepare(indexJson) -> prepared, row(prepared, i),
 *   search(prepared, value, limit?) -> trace (throws SearchError {field, message}),
 *   render(trace, element, showAll?, maxLimit?), fold(text), splitTerms(folded),
 *   queryTerms(value, rules).
 *
 * Folding (see terms.py for the why): NFKD, lower-case, NFKD, drop nonspacing marks (Mn),
 * ß→ss, ς→σ; all-ASCII text is just lower-cased. Terms: maximal runs of letters, marks and
 * digits (L, M, N) of the folded value, in order of first appearance; shorter than
 * min_term_chars code points, stop words, and terms past max_terms are dropped (and named in
 * the query string). A term matches a field when it is a substring of the folded field.
 * Score: per matched term, weight of each field it occurs in (id 4, title 3, summary 1).
 * Order: score desc, then kind, then uri — the index rows are already in (kind, uri) order,
 * so the tie-break is the row position and no strings are compared here.
 */
(function (root) {
  "use strict";

  // ---- folding and terms: mirrors generator/query/terms.py -----------------------------

  const NON_ASCII = /[^\x00-\x7f]/;
  const NONSPACING_MARK = /\p{Mn}/gu;
  const TERM = /[\p{L}\p{M}\p{N}]+/gu;
  const BLANK = /^[\p{Z}\p{Cc}]*$/u;
  const INTEGER = /^-?[0-9]+$/;
  const DEFAULT_INDEX_URL = "api/v1/search-index.json";
  const SCRIPT = typeof document !== "undefined" ? document.currentScript : null;
  /** hit -> its page URL, so a hit stays exactly the wire object and render() needs no map. */
  const HIT_URLS = new WeakMap();

  /** The folded form of a string (identical to terms.fold in Python). */
  function fold(text) {
    if (!NON_ASCII.test(text)) return text.toLowerCase();
    return text
      .normalize("NFKD")
      .toLowerCase()
      .normalize("NFKD")
      .replace(NONSPACING_MARK, "")
      .replace(/ß/g, "ss")
      .replace(/ς/g, "σ");
  }

  /** Length in code points (Python's len), not UTF-16 units. */
  function codePoints(text) {
    let n = 0;
    for (const _ of text) n += 1; // eslint-disable-line no-unused-vars
    return n;
  }

  /** The maximal runs of letters, marks and digits of a folded string (terms.split_terms). */
  function splitTerms(folded) {
    return folded.match(TERM) || [];
  }

  /** {terms, dropped: [[term, reason], ...]}, both in order of first appearance. */
  function queryTerms(value, rules) {
    const terms = [];
    const dropped = [];
    const seenDropped = new Set();
    const stop = new Set(rules.stop_words);
    for (const term of splitTerms(fold(value))) {
      if (terms.includes(term)) continue;
      let reason;
      if (codePoints(term) < rules.min_term_chars) reason = rules.drop_reasons.short;
      else if (stop.has(term)) reason = rules.drop_reasons.stop;
      else if (terms.length >= rules.max_terms) reason = rules.drop_reasons.extra;
      else {
        terms.push(term);
        continue;
      }
      if (!seenDropped.has(term)) {
        seenDropped.add(term);
        dropped.push([term, reason]);
      }
    }
    return { terms, dropped };
  }

  // ---- request checks: mirror generator/query/api.py and text.py -----------------------

  class SearchError extends Error {
    constructor(field, message) {
      super(message);
      this.name = "SearchError";
      this.field = field;
    }
  }

  /** null when absent; an integer for -?[0-9]+ of at most max_digits digits; else an error. */
  function parseLimit(raw, rules) {
    if (raw === undefined || raw === null) return null;
    const text = String(raw);
    const range = `from 1 to ${rules.max_limit}`;
    if (!INTEGER.test(text)) {
      throw new SearchError("limit", `limit \`${text}\` is not an integer; give a whole number ${range}`);
    }
    if (text.replace(/^-/, "").length > rules.max_digits) {
      throw new SearchError("limit", `limit \`${text}\` is out of range; give a whole number ${range}`);
    }
    return parseInt(text, 10) || 0; // || 0 turns -0 into 0
  }

  function checkValue(value, rules) {
    if (value === undefined || value === null || BLANK.test(value)) {
      throw new SearchError("value", "value is empty or blank; give one or more words to search for");
    }
    const n = codePoints(value);
    if (n > rules.max_value_chars) {
      throw new SearchError(
        "value",
        `value is ${n} characters long; a text query takes at most ${rules.max_value_chars}`
      );
    }
  }

  /** [the limit applied, how the query string states it]. */
  function checkLimit(limit, rules) {
    if (limit === null) return [rules.default_limit, `limit=${rules.default_limit}`];
    if (limit < 1) {
      throw new SearchError("limit", `limit is ${limit}; it must be 1 or more (at most ${rules.max_limit})`);
    }
    if (limit > rules.max_limit) return [rules.max_limit, `limit=${rules.max_limit} (clamped from ${limit})`];
    return [limit, `limit=${limit}`];
  }

  // ---- the index and the ranking: mirror generator/query/text.py -----------------------

  /**
   * Unpack a search index (version 1) and fold every field once.
   *
   * `folded[k]` is field k (row k / 3; field k % 3: id, title, summary), and `text` is every
   * folded field followed by a NUL, so field k occupies text[starts[k] .. starts[k + 1] - 1)
   * — exactly the corpus text.py searches. Positions are UTF-16 offsets here and code points
   * there; each side only compares its own positions, so the results are the same. Rows stay
   * as the index gives them; row() unpacks one only when it is a hit (time to first result).
   */
  function prepare(data) {
    if (!data || data.format !== "devcontext-search-index" || data.version !== 1) {
      throw new Error("search.js: not a version 1 devcontext search index");
    }
    const col = {};
    data.columns.forEach((name, i) => { col[name] = i; });
    const objects = data.objects;
    const fields = [col.identity, col.title, col.summary];
    const folded = new Array(3 * objects.length);
    const starts = new Uint32Array(folded.length + 1);
    let offset = 0;
    for (let p = 0; p < objects.length; p += 1) {
      const row = objects[p];
      for (let f = 0; f < 3; f += 1) {
        const k = 3 * p + f;
        const value = row[fields[f]];
        folded[k] = typeof value === "string" ? fold(value) : "";
        starts[k] = offset;
        offset += folded[k].length + 1;
      }
    }
    starts[folded.length] = offset;
    return {
      rules: data.rules,
      data,
      col,
      count: objects.length,
      folded,
      text: folded.join("\0") + "\0",
      starts,
    };
  }

  /** Row p of a prepared index: {anchor, kind, title, url} (null when absent). */
  function row(prepared, p) {
    const { data, col } = prepared;
    const cells = data.objects[p];
    const cell = (name) => (cells.length > col[name] && cells[col[name]] !== null ? cells[col[name]] : null);
    const kind = data.kinds[cells[col.kind]];
    const identity = cells[col.identity];
    const pattern = (data.url_patterns || {})[kind];
    return {
      anchor: cell("uri") || `${data.uri_scheme}://${kind}/${identity}`,
      kind,
      title: cell("title"),
      url: cell("url") ?? (pattern ? pattern[0] + identity + pattern[1] : null),
    };
  }

  /** The largest k with starts[k] <= pos (bisect_right - 1). */
  function fieldAt(starts, pos) {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** "id: eval ×4; title: eval ×3, gate ×3": fields in weight order, terms in query order. */
  function why(prepared, p, terms, weights) {
    const parts = [];
    weights.forEach(([name, weight], f) => {
      const text = prepared.folded[3 * p + f];
      const found = terms.filter((t) => text.includes(t));
      if (found.length) parts.push(`${name}: ` + found.map((t) => `${t} ×${weight}`).join(", "));
    });
    return parts.join("; ");
  }

  /** The EXPLAIN trace of a text query — the same object the Python engine returns. */
  function search(prepared, value, limit) {
    const rules = prepared.rules;
    const parsed = parseLimit(limit, rules);
    checkValue(value, rules);
    const [cap, limitText] = checkLimit(parsed, rules);
    const { terms, dropped } = queryTerms(value, rules);
    let query = `text terms=[${terms.join(" ")}] ${limitText}`;
    if (dropped.length) query += " dropped=[" + dropped.map(([t, r]) => `${t} (${r})`).join(", ") + "]";

    const count = terms.length ? prepared.count : 0;
    const weights = rules.weights.map(([, weight]) => weight);
    // Each term is searched in the whole folded corpus; after a match the search resumes at
    // the next field, so a term counts at most once per field (text.py does the same).
    const scores = new Array(count).fill(0);
    const { text, starts } = prepared;
    for (const term of terms) {
      let pos = text.indexOf(term);
      while (pos !== -1) {
        const k = fieldAt(starts, pos);
        scores[(k / 3) | 0] += weights[k % 3];
        pos = text.indexOf(term, starts[k + 1]);
      }
    }
    const matched = [];
    scores.forEach((score, p) => { if (score) matched.push(p); });
    const ranked = matched.slice().sort((a, b) => scores[b] - scores[a] || a - b);
    const hits = ranked.slice(0, cap).map((p) => {
      const info = row(prepared, p);
      const hit = { anchor: info.anchor, kind: info.kind, score: scores[p], why: why(prepared, p, terms, rules.weights) };
      if (info.title !== null) hit.title = info.title;
      HIT_URLS.set(hit, info.url);
      return hit;
    });
    return {
      query,
      candidates_scanned: count,
      candidates_matched: matched.length,
      order_by: rules.order_by.slice(),
      hits,
      unresolved_edges: [],
    };
  }

  // ---- rendering ------------------------------------------------------------------------

  /** The interface words of the results, in English unless the page gives its own. */
  const ENGLISH = {
    query: "Query as executed: ",
    counts: "{shown} shown of {matched} matched; {scanned} scanned.",
    show_all: "Show all {all}",
    show_first: "Show the first {cap} of {all}",
    cap: "A query returns at most {cap} hits; add words to narrow it to the rest.",
    ordered: "Ordered by:",
    score: "score {score}",
    unresolved: "Unresolved edges:",
  };
  let pageStrings = null;

  function strings() {
    if (pageStrings) return pageStrings;
    const node = typeof document !== "undefined" ? document.getElementById("search-strings") : null;
    pageStrings = Object.assign({}, ENGLISH, node ? JSON.parse(node.textContent) : {});
    return pageStrings;
  }

  /** A number as the page's language writes it (English: as it always was, ungrouped). */
  function number(n) {
    const lang = typeof document !== "undefined" ? document.documentElement.lang : "";
    if (!lang || lang === "en" || typeof Intl === "undefined") return String(n);
    return new Intl.NumberFormat(lang).format(n);
  }

  /** `template` with its {named} fields filled, numbers written for the page's language. */
  function words(key, values) {
    return strings()[key].replace(/\{(\w+)\}/g, (whole, name) =>
      name in values ? (typeof values[name] === "number" ? number(values[name]) : values[name]) : whole);
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /**
   * Render a trace from search() (or an Error) into `target`, replacing what it held. When
   * the cap left hits out and `showAll(limit)` is given, a button asks for every match (up
   * to the engine's max_limit, which the index states).
   */
  function render(trace, target, showAll, maxLimit) {
    target.replaceChildren();
    if (trace instanceof Error) {
      const p = el("p", "search-error", trace.message);
      p.setAttribute("role", "alert");
      target.append(p);
      return;
    }
    const box = el("section", "search-trace");
    const query = el("p", "search-query", words("query", {}));
    query.append(el("code", null, trace.query));
    box.append(query);
    const counts = el("p", "search-counts", words("counts", {
      shown: trace.hits.length, matched: trace.candidates_matched, scanned: trace.candidates_scanned }));
    box.append(counts);
    if (showAll && trace.hits.length < trace.candidates_matched) {
      const all = trace.candidates_matched;
      const cap = maxLimit && maxLimit < all ? maxLimit : all;
      if (cap > trace.hits.length) {
        const button = el("button", "search-more",
          cap === all ? words("show_all", { all }) : words("show_first", { cap, all }));
        button.type = "button";
        button.addEventListener("click", () => showAll(cap));
        counts.append(" ", button);
      }
      if (cap < all) {
        counts.append(" ", el("span", "search-cap",
          words("cap", { cap })));
      }
    }
    const order = el("ol", "search-order");
    // The trace keeps the engine's English rule (the same trace as the server's); the page
    // shows the rule in its language when it gives one.
    const said = strings().order_by || {};
    trace.order_by.forEach((rule) => order.append(el("li", null, said[rule] || rule)));
    box.append(el("p", "search-order-label", words("ordered", {})), order);
    const list = el("ol", "search-hits");
    trace.hits.forEach((hit) => {
      const li = el("li", "search-hit");
      const url = HIT_URLS.get(hit);
      const name = url ? el("a", "search-title", hit.title || hit.anchor) : el("span", "search-title", hit.title || hit.anchor);
      if (url) name.setAttribute("href", url);
      li.append(name, " ", el("span", "search-kind", hit.kind), " ",
        el("span", "search-score", words("score", { score: hit.score })), " ",
        el("span", "search-why", hit.why), " ", el("code", "search-anchor", hit.anchor));
      list.append(li);
    });
    box.append(list);
    if (trace.unresolved_edges.length) {
      const edges = el("ul", "search-unresolved");
      trace.unresolved_edges.forEach((e) =>
        edges.append(el("li", null, `${e.from} ${e.field}: ${e.reference} — ${e.why}`)));
      box.append(el("p", null, words("unresolved", {})), edges);
    }
    target.append(box);
  }

  // ---- loading and page wiring ---------------------------------------------------------

  /** The prepared index: embedded JSON first (works from file://), else fetched. */
  async function load(url) {
    const embedded = document.getElementById("search-index");
    if (embedded) return prepare(JSON.parse(embedded.textContent));
    const from = url || (SCRIPT && SCRIPT.dataset.searchIndex) || DEFAULT_INDEX_URL;
    const response = await fetch(from);
    if (!response.ok) throw new Error(`search.js: ${from}: HTTP ${response.status}`);
    return prepare(await response.json());
  }

  /** Attach to the page's search box, when it has one (see the header for the ids). */
  function wire() {
    const input = document.getElementById("search-input") ||
      document.querySelector("#search-form input");
    const target = document.getElementById("search-results");
    if (!input || !target) return;
    const initial = new URLSearchParams(root.location.search).get("q");
    if (initial !== null && !input.value) input.value = initial;
    const mark = (name) => root.performance && performance.mark && performance.mark(name);
    load().then((prepared) => {
      mark("search:ready"); // index parsed and folded
      let limit; // undefined: the default cap; "show all" raises it until the query changes
      const showAll = (cap) => {
        limit = String(cap);
        run();
      };
      const run = () => {
        if (BLANK.test(input.value)) {
          target.replaceChildren();
          return;
        }
        let trace;
        try {
          trace = search(prepared, input.value, limit);
        } catch (err) {
          if (!(err instanceof SearchError)) throw err;
          trace = err;
        }
        render(trace, target, showAll, prepared.rules.max_limit);
        if (target.dataset.state !== "ready") {
          target.dataset.state = "ready";
          mark("search:first-result");
        }
      };
      input.addEventListener("input", () => {
        limit = undefined;
        run();
      });
      if (input.form) {
        input.form.addEventListener("submit", (event) => {
          event.preventDefault(); // the results are already on the page
          run();
        });
      }
      run();
    }, (err) => {
      render(err, target);
    });
  }

  root.DevcontextSearch = { fold, splitTerms, queryTerms, prepare, row, search, render, load, SearchError };
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
    else wire();
  }
})(typeof window !== "undefined" ? window : globalThis);
