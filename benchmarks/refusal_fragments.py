"""A design study, run by hand (not a ``bench_`` module):
``python -m benchmarks.refusal_fragments [large|medium]``.

What writing a context's budget refusals as JSON would cost if each row were joined from
fragments kept per object (its cost, kind, tier and URI never change between contexts)
and the row's own detail and relevance, against ``canonical_json`` of the whole answer as
it is written now. Issue 17's note quotes it: the lever is small, because the answer's
JSON is already written from kept rows."""

from __future__ import annotations

import json
import statistics
import sys
import time

from generator.engine.compile import GitInfo, compile_with_reach
from generator.engine.models import CompileInput
from generator.jsonio import canonical_json
from generator.site.contexts import context_keys
from generator.workspace import Workspace

from .layers import synthetic

#: Contexts measured, from the middle of the build's order; the first few warm the kept
#: fragments, as a worker's earlier contexts would.
CONTEXTS, WARM = 30, 5


def main(size: str = "large") -> None:
    index = Workspace.open(synthetic(size)).index
    git = GitInfo()
    keys = context_keys(index)
    start = len(keys) // 2
    answers = [compile_with_reach(index, CompileInput(**{k.kind: k.identity}), git=git)[0]
               for k in keys[start:start + CONTEXTS]]
    kept: dict[str, tuple[str, str, str]] = {}
    joined, whole, counts = [], [], []
    for answer in answers:
        refused = [x for x in answer.excluded if x.reason == "budget"]
        for x in refused:  # made once per object in such a design: not timed
            if x.uri not in kept:
                kept[x.uri] = ('{"cost_tokens":%d,"detail":"' % x.cost_tokens,
                               '","kind":%s,"reason":"budget","relevance":' % json.dumps(x.kind),
                               ',"tier":"%s","uri":%s}' % (x.tier, json.dumps(x.uri)))
        own = [(x.uri, x.detail, x.relevance) for x in refused]
        t0 = time.perf_counter()
        rows = []
        for uri, detail, relevance in own:
            head, middle, tail = kept[uri]
            rows.append(f"{head}{detail}{middle}{relevance}{tail}")
        ",".join(rows)
        t1 = time.perf_counter()
        canonical_json(answer)
        t2 = time.perf_counter()
        joined.append(t1 - t0)
        whole.append(t2 - t1)
        counts.append(len(refused))
    print(f"{size}: {statistics.mean(counts):,.0f} budget refusals a context; their JSON rows "
          f"joined from kept fragments {statistics.mean(joined[WARM:]) * 1e3:.3f} ms; the whole "
          f"answer's canonical_json as written now {statistics.mean(whole[WARM:]) * 1e3:.3f} ms")


if __name__ == "__main__":
    main(*sys.argv[1:2])
