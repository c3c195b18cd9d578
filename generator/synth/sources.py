"""The Python source and tests the issues scope: small plausible modules, one test file per
module."""

from __future__ import annotations

from pathlib import PurePosixPath

from .plan import Plan
from .text import cap


def write_sources(plan: Plan) -> None:
    rng = plan.rng("sources")
    verbs = ("load", "parse", "build", "check", "merge", "render", "resolve", "count",
             "split", "encode", "fetch", "store")
    objects = ("record", "batch", "rows", "key", "entry", "config", "payload", "window",
               "cursor", "index")
    for area, module in plan.modules:
        tested: list[tuple[str, str]] = []
        for path in plan.module_files[(area, module)]:
            name = PurePosixPath(path).stem
            if name == "__init__":
                plan.put(path, f'"""The {module} package of {area}."""\n\n'
                               "__all__: list[str] = []\n")
                continue
            count = min(40, int(rng.paretovariate(1.3)))
            parts = [
                f'"""{cap(area)} {module}: {name}.\n\n'
                f'{plan.sentences(rng, area, module, 1)}\n"""\n',
                "from __future__ import annotations\n",
                "import logging\nfrom dataclasses import dataclass\n",
                "log = logging.getLogger(__name__)\n",
            ]
            names: list[str] = []
            for k in range(count):
                fn = f"{rng.choice(verbs)}_{rng.choice(objects)}"
                if fn in names:
                    fn = f"{fn}_{k}"
                names.append(fn)
                limit = rng.randint(2, 500)
                kind = rng.randrange(3)
                if kind == 0:
                    parts.append(
                        f"\ndef {fn}(items: list[dict], limit: int = {limit}) -> list[dict]:\n"
                        f'    """Return at most ``limit`` items that carry a key."""\n'
                        f"    out = []\n    for item in items:\n"
                        f'        if "key" not in item:\n'
                        f'            log.debug("skipping %r", item)\n            continue\n'
                        f"        out.append(item)\n        if len(out) >= limit:\n"
                        f"            break\n    return out\n"
                    )
                elif kind == 1:
                    cls = "".join(p.title() for p in fn.split("_")[:2]) + str(k)
                    parts.append(
                        f"\n@dataclass(frozen=True)\nclass {cls}:\n"
                        f'    """One {name} step of {area}.{module}."""\n\n'
                        f"    name: str\n    weight: int = {limit}\n\n"
                        f"    def scaled(self, factor: float) -> float:\n"
                        f"        return self.weight * factor\n"
                        f"\n\ndef {fn}(name: str) -> {cls}:\n    return {cls}(name)\n"
                    )
                else:
                    parts.append(
                        f"\ndef {fn}(text: str) -> str:\n"
                        f"    if not text:\n"
                        f'        raise ValueError("{fn}: empty input")\n'
                        f"    return text.strip()[:{limit}]\n"
                    )
            if names:
                tested.append((name, names[0]))
            plan.put(path, "\n".join(parts))
        head = [f'"""Tests for {area}.{module}."""\n\nimport pytest\n']
        head.extend(f"from {area}.{module}.{name} import {fn}\n" for name, fn in tested)
        cases: list[str] = []
        for name, fn in tested:
            cases.append(f"def test_{fn}_is_callable():\n    assert callable({fn})\n")
            if rng.random() < 0.5:
                cases.append(
                    f"@pytest.mark.parametrize('size', [0, 1, {rng.randint(2, 99)}])\n"
                    f"def test_{name}_handles_size(size):\n    assert size >= 0\n"
                )
        plan.put(f"tests/{area}/test_{module}.py",
                 "".join(head) + "\n\n" + "\n\n".join(cases))

