"""The plan of one synthetic layer: its seeded random streams, the files written so far, the
code tree every record talks about, and the facts one stage leaves for the next (rule ids,
milestone slugs and dates, the issues with their lifecycle).

Each stage (``decisions``, ``project``, ``records``, ``config``, ``sources``) is a function of
a :class:`Plan`; :func:`generator.synth.synthesize` runs them in a fixed order. Every stage
draws from its own stream (:meth:`Plan.rng`), so a stage's output depends on the facts it
reads, never on how many numbers an earlier stage drew.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from .shapes import Shape
from .text import cap
from .vocabulary import ACCEPTANCE, AREAS, BODY_SENTENCES, FILES, MODULES, NOUNS

#: Lifecycle states of a synthetic issue (derived by the product from the facts written).
DONE, VERIFY, ACTIVE, CANCELLED, NEW = "DONE", "VERIFY", "ACTIVE", "CANCELLED", "NEW"


@dataclass
class Issue:
    """One issue as later stages need it (sessions cite its scope, dates and profile)."""

    number: int
    ident: str
    milestone: int
    area: str
    module: str
    state: str
    slug: str = ""
    profile: str = "implementation"
    scope_files: tuple[str, ...] = ()
    started: datetime | None = None
    completed: datetime | None = None


class Plan:
    """The state shared by the stages; written to only by the stage that owns each fact."""

    def __init__(self, shape: Shape, seed: str) -> None:
        self.shape = shape
        self.seed = seed
        self.files: dict[str, str] = {}
        # The code tree (set here, from its own stream).
        self.areas: list[str] = []
        self.modules: list[tuple[str, str]] = []
        self.module_files: dict[tuple[str, str], list[str]] = {}
        self.modules_of: dict[str, list[str]] = {}
        # Set by decisions.write_rules.
        self.rule_ids: list[str] = []
        self.rule_latest: dict[str, int] = {}
        # Set by decisions.write_rules and write_adrs: what each area's decisions are, so
        # intents, knowledge and use cases link the decisions over the code they are about.
        self.rules_of_area: dict[str, list[str]] = {}
        self.rule_active: dict[str, bool] = {}
        self.adrs_of_area: dict[str, list[tuple[str, str]]] = {}
        # Set by intents.plan_intents: each milestone's intent's criteria (id, text); by
        # intents.write_intents: per area, the decisions some intent is governed by.
        self.intent_criteria: list[list[tuple[str, str]]] = []
        self.governing_adrs: dict[str, list[str]] = {}
        # Set by project.plan_milestones and project.write_issues.
        self.ms_slugs: list[str] = []
        self.ms_areas: list[list[str]] = []
        self.ms_created: list[datetime] = []
        self.ms_texts: list[dict[str, object]] = []
        self.ms_last_update: list[datetime] = []
        self.gap = 0
        self.issue_list: list[Issue] = []
        self._code_tree()

    def encoded(self) -> dict[str, bytes]:
        """The files written, as UTF-8 bytes, sorted by path."""
        return {path: self.files[path].encode("utf-8") for path in sorted(self.files)}

    def rng(self, part: str) -> random.Random:
        # A string seed goes through SHA-512 in random.seed (version 2): no hash() involved.
        return random.Random(f"{self.seed}|{part}")

    def put(self, path: str, text: str) -> None:
        if path in self.files:  # pragma: no cover - a generator bug, never user input
            raise AssertionError(f"synth wrote {path} twice")
        self.files[path] = text

    # -- prose -------------------------------------------------------------------------------

    def words(self, rng: random.Random, area: str, module: str) -> dict[str, object]:
        return {
            "area": area, "Area": cap(area), "module": module, "noun": rng.choice(NOUNS),
            "n": rng.randint(3, 97), "other": rng.choice(self.areas),
        }

    def sentences(self, rng: random.Random, area: str, module: str, count: int) -> str:
        w = self.words(rng, area, module)
        return " ".join(s.format(**w) for s in rng.sample(BODY_SENTENCES, count))

    def paragraphs(self, rng: random.Random, area: str, module: str, lo: int, hi: int) -> str:
        return "\n\n".join(
            self.sentences(rng, area, module, rng.randint(2, 5)) for _ in range(rng.randint(lo, hi))
        )

    def acceptance(self, rng: random.Random, area: str, module: str, count: int) -> list[str]:
        picked = rng.sample(ACCEPTANCE, count)
        return [s.format(**self.words(rng, area, module)) for s in picked]

    # -- the code tree the layer talks about -------------------------------------------------

    def _code_tree(self) -> None:
        """Areas, their modules and each module's files: what the records scope and cite."""
        shape, rng = self.shape, self.rng("code")
        if shape.areas > len(AREAS) or shape.modules_per_area > len(MODULES) or not (
            1 <= shape.files_per_module <= len(FILES) + 1
        ):  # pragma: no cover - the shapes are ours
            raise AssertionError("shape exceeds the vocabulary")
        self.areas = sorted(rng.sample(AREAS, shape.areas))
        for area in self.areas:
            mods = sorted(rng.sample(MODULES, shape.modules_per_area))
            self.modules_of[area] = mods
            for mod in mods:
                names = ["__init__", *sorted(rng.sample(FILES, shape.files_per_module - 1))]
                self.modules.append((area, mod))
                self.module_files[(area, mod)] = [f"src/{area}/{mod}/{n}.py" for n in names]

    def src_file(self, rng: random.Random, area: str, module: str) -> str:
        files = self.module_files[(area, module)]
        return files[rng.randrange(len(files))]

    def any_module(self, rng: random.Random) -> tuple[str, str]:
        return self.modules[rng.randrange(len(self.modules))]
