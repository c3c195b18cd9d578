"""``benchmarks/output_floor.py`` (run by hand against a built site): its sums add up to the
site's bytes and its floors stay below what the answers weigh now."""

from __future__ import annotations

import json

from benchmarks.output_floor import measure
from generator.engine.compile import GitInfo
from generator.site.build import SiteInputs, build_site
from generator.workspace import Workspace
from generator.writer import write_site


def test_the_floors_of_the_demo_site(tmp_path):
    ws = Workspace.open(None)
    out = tmp_path / "site"
    write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), files=ws.tree.files,
                                     label="demo")), out)
    found = measure(out)
    on_disk = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert sum(v for k, v in found.items() if k.startswith("bytes: ")) == on_disk
    answers = sorted((out / "api/v1/devcontext/compile").rglob("*.json"))
    rows = [r for p in answers for r in json.loads(p.read_bytes())["excluded"]]
    assert found["answers"] == len(answers) == 15 and found["exclusion rows"] == len(rows) > 0
    assert found["with no detail"] < found["with the least detail"] <= found[
        "exclusion rows' JSON now"]
    # every row keeps its required fields: the floor is their bytes, not zero
    assert found["with no detail"] >= len(rows) * len('{"cost_tokens":0,"detail":"","kind":'
                                                     '"","reason":"","relevance":0,"tier":'
                                                     '"","uri":""},')
