"""Deterministic synthetic AI layers (format ``ai-repository/v1``).

:func:`synthesize` builds, in memory, a whole repository carrying an AI layer that looks like a
real one (the shapes of ``../shared/data/majordomus-layer``): manifest, policy, scope, knowledge
sources, profiles, prompts, the project model (milestones and issues with lifecycle facts),
ADRs with supersede chains, versioned rules, directory contracts, curated knowledge, session
records, use cases, and the Python source and tests that the issues scope. It returns
``{repo-relative path: bytes}``, sorted by path; the same arguments give the same bytes on every
machine and under every ``PYTHONHASHSEED`` (string-seeded :class:`random.Random`, no clock, no
``hash()``, no set iteration). :func:`write_layer` puts such a mapping on disk.

A few references dangle on purpose, because real layers have them and the product must report
them: an issue depends on an issue id that was never written (a gap in the numbering), an ADR
supersedes an ADR number that is not held (same), a rule depends on a rule version and on a rule
that do not exist, a directory contract tracks a path that does not exist, and a milestone
depends on a milestone that does not exist. A few issue titles carry an unquoted ``": "``
(the layer's YAML dialect allows it; a strict parser refuses it).

The YAML is written here by small helpers, not by a YAML library, so the output stays byte-stable
and looks hand-written (flow lists for tags, block lists elsewhere, dates unquoted).
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path, PurePosixPath

from generator.errors import BuildError, InputError

__all__ = ["SIZES", "Shape", "synthesize", "write_layer"]


# --------------------------------------------------------------------------------------------
# Shapes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """How many objects of each kind a synthetic layer holds.

    ``areas * modules_per_area`` Python packages are written under ``src/``, each with
    ``files_per_module`` files (one of them ``__init__.py``) and one test file under
    ``tests/<area>/``. ``rules`` counts rule identities; about one in eight also exists at
    version 2 (both files present).
    """

    milestones: int
    issues: int
    adrs: int
    rules: int
    knowledge: int
    sessions: int
    use_cases: int
    areas: int
    modules_per_area: int
    files_per_module: int


SIZES: dict[str, Shape] = {
    "small": Shape(
        milestones=3, issues=24, adrs=12, rules=15, knowledge=3, sessions=6, use_cases=3,
        areas=3, modules_per_area=3, files_per_module=3,
    ),
    "medium": Shape(
        milestones=40, issues=1000, adrs=100, rules=60, knowledge=20, sessions=200, use_cases=12,
        areas=12, modules_per_area=8, files_per_module=6,
    ),
    "large": Shape(
        milestones=400, issues=10000, adrs=1000, rules=400, knowledge=200, sessions=2500,
        use_cases=100, areas=40, modules_per_area=25, files_per_module=15,
    ),
}

#: Bumped when the output changes shape on purpose; part of every seed.
_GENERATION = "devcontext-synth/1"

# Names the generator never produces, used by the deliberately dangling references.
_MISSING_MILESTONE = "foundation"
_MISSING_RULE = "project.externalise-decisions"
# Under the `source` class (src/**/*.py), so the product reports it unresolved, not external.
_MISSING_TRACKED_PATH = "src/legacy_bridge/adapter.py"

_MANIFEST_MARKER = "generator.synth"


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def synthesize(size: str = "small", *, issues: int | None = None) -> dict[str, bytes]:
    """Pure: repo-relative path (forward slashes) -> file bytes. Same arguments -> same bytes.

    ``issues`` overrides the issue count of ``size``; milestones, ADRs and session records
    scale with it (at least one milestone, two ADRs and one session); the rest of the shape
    stays the size's. An unknown ``size`` or a negative ``issues`` is an
    :class:`~generator.errors.InputError`.
    """
    shape = _resolve_shape(size, issues)
    seed = f"{_GENERATION}|{size}|{shape.issues}"
    files = _Synth(shape, seed).run()
    return {path: files[path] for path in sorted(files)}


def write_layer(files: Mapping[str, bytes], out_dir: Path) -> int:
    """Write ``files`` under ``out_dir`` (creating directories); return how many were written.

    ``out_dir`` may be missing, empty, or an earlier synth output (its ``.ai/manifest.yaml``
    carries the synth marker); anything else that is a non-empty directory is refused with a
    :class:`~generator.errors.BuildError`, so a real repository is never overwritten. Files of
    an earlier synth output that ``files`` no longer has are removed (only under ``.ai/``
    except ``.ai/local/``, ``src/``, ``tests/`` and the root ``README.md``), and directories
    left empty by that are pruned.
    """
    out = Path(out_dir)
    targets = [(_checked_rel_path(rel), rel) for rel in sorted(files)]
    for rel in sorted(files):
        if not isinstance(files[rel], (bytes, bytearray)):
            found = type(files[rel]).__name__
            raise InputError(f"file {rel!r}: content must be bytes, found {found}", path=rel)
    stale: list[Path] = []
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise BuildError(
                f"cannot write a synthetic layer to {out}: it exists and is not a directory; "
                "choose a new or empty directory"
            )
        if any(out.iterdir()):
            manifest = out / ".ai" / "manifest.yaml"
            if not _is_synth_manifest(manifest):
                found = "no .ai/manifest.yaml" if not manifest.is_file() else (
                    ".ai/manifest.yaml was not written by generator.synth"
                )
                raise BuildError(
                    f"refusing to write a synthetic layer to {out}: the directory is not empty "
                    f"and does not look like an earlier synth output ({found}); "
                    "choose a new or empty directory"
                )
            stale = _stale_files(out, set(files))
    try:
        # Stale files go first, so that a new directory may take the place of an old file.
        for path in stale:
            path.unlink()
        _prune_empty_dirs(out, stale)
        made: set[Path] = set()
        for parts, rel in targets:
            target = out.joinpath(*parts)
            parent = target.parent
            if parent not in made:
                parent.mkdir(parents=True, exist_ok=True)
                made.add(parent)
            target.write_bytes(bytes(files[rel]))
    except OSError as exc:
        raise BuildError(f"could not write the synthetic layer to {out}: {exc}") from exc
    return len(targets)


# --------------------------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------------------------


def _resolve_shape(size: str, issues: int | None) -> Shape:
    if not isinstance(size, str) or size not in SIZES:
        valid = ", ".join(sorted(SIZES))
        raise InputError(f"unknown synthetic layer size {size!r}; valid sizes: {valid}",
                         field="size")
    shape = SIZES[size]
    if issues is None:
        return shape
    if isinstance(issues, bool) or not isinstance(issues, int) or issues < 0:
        raise InputError(f"issues must be a whole number >= 0, found {issues!r}", field="issues")
    ratio = issues / shape.issues
    return replace(
        shape,
        issues=issues,
        milestones=max(1, round(shape.milestones * ratio)),
        adrs=max(2, round(shape.adrs * ratio)),
        sessions=max(1, round(shape.sessions * ratio)),
    )


# --------------------------------------------------------------------------------------------
# YAML writing (the layer's subset: block mappings, block and flow lists, plain or quoted
# scalars; no anchors, no block scalars)
# --------------------------------------------------------------------------------------------


class _Raw(str):
    """A scalar written exactly as given (dates, and the dialect's unquoted ``": "`` titles)."""


class _Flow(list):
    """A list written in flow style: ``[a, b]``."""


_YAML_WORDS = frozenset(
    "y n yes no true false on off null ~ = <<".split()
)
_NUMBER_LIKE = re.compile(r"[-+]?(?:[0-9][0-9_:.eE+-]*|\.[0-9].*|\.(?:inf|nan))", re.IGNORECASE)
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_CHARS = re.compile(r"[,\[\]{}]")
_NUMBER_START = frozenset("0123456789+-.")


def _scalar(value: object, flow: bool = False) -> str:
    if type(value) is str:  # the common case first
        return _quoted(value) if _needs_quotes(value, flow) else value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, _Raw):
        return str(value)
    text = str(value)
    return _quoted(text) if _needs_quotes(text, flow) else text


def _needs_quotes(text: str, flow: bool) -> bool:
    # Refused as plain: an indicator or a space first, ":" or a space last, ": " or " #"
    # inside, or anything not printable (tabs, newlines, control and format characters).
    if not text or text[0] in _INDICATORS or text[0] == " " or text[-1] in ": ":
        return True
    if ": " in text or " #" in text or not text.isprintable():
        return True
    if flow and _FLOW_CHARS.search(text):
        return True
    if len(text) <= 5 and text.lower() in _YAML_WORDS:
        return True
    return text[0] in _NUMBER_START and _NUMBER_LIKE.fullmatch(text) is not None


def _quoted(text: str) -> str:
    if not text.isprintable() or "\\" in text:
        return json.dumps(text)  # JSON escapes are valid YAML double-quoted escapes
    if '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


def _yaml(mapping: Mapping[str, object]) -> str:
    """A block mapping as YAML text, ending with a newline."""
    lines: list[str] = []
    _emit(lines, mapping, "")
    lines.append("")
    return "\n".join(lines)


def _emit(lines: list[str], mapping: Mapping[str, object], pad: str) -> None:
    for key, value in mapping.items():
        if isinstance(value, dict):
            if value:
                lines.append(f"{pad}{key}:")
                _emit(lines, value, pad + "  ")
            else:
                lines.append(f"{pad}{key}: {{}}")
        elif isinstance(value, _Flow):
            lines.append(f"{pad}{key}: [" + ", ".join(_scalar(v, True) for v in value) + "]")
        elif isinstance(value, list):
            if not value:
                lines.append(f"{pad}{key}: []")
                continue
            lines.append(f"{pad}{key}:")
            for item in value:
                if isinstance(item, dict):
                    sub: list[str] = []
                    inner = pad + "    "
                    _emit(sub, item, inner)
                    sub[0] = pad + "  - " + sub[0][len(inner):]
                    lines.extend(sub)
                else:
                    lines.append(f"{pad}  - {_scalar(item)}")
        else:
            lines.append(f"{pad}{key}: {_scalar(value)}")


def _front_matter(mapping: Mapping[str, object], body: str, extra: str = "") -> str:
    return "---\n" + _yaml(mapping) + extra + "---\n\n" + body


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

_EPOCH = datetime(2024, 9, 2, 9, 0, 0)
_SLUG_DROP = re.compile(r"[^a-z0-9]+")


def _slugify(text: str, limit: int = 60) -> str:
    slug = _SLUG_DROP.sub("-", text.lower()).strip("-")
    if len(slug) > limit:
        slug = slug[:limit].rstrip("-")
    return slug


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _d(moment: datetime) -> _Raw:
    return _Raw(moment.date().isoformat())


def _dt(moment: datetime) -> _Raw:
    return _Raw(moment.isoformat(sep="T", timespec="seconds") + "Z")


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%SZ")


def _hex(rng: random.Random, digits: int) -> str:
    return format(rng.getrandbits(digits * 4), f"0{digits}x")


def _weighted(rng: random.Random, options: tuple, cumulative: tuple) -> object:
    """``rng.choices`` for one pick, with precomputed cumulative weights (faster)."""
    x = rng.random() * cumulative[-1]
    for option, bound in zip(options, cumulative):
        if x < bound:
            return option
    return options[-1]


def _cumulative(weights: tuple) -> tuple:
    total, out = 0, []
    for w in weights:
        total += w
        out.append(total)
    return tuple(out)


class _Unique:
    """Hands out unique slugs: a repeated one gets ``-2``, ``-3``, ... ."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, slug: str) -> str:
        n = self.seen.get(slug, 0) + 1
        self.seen[slug] = n
        if n == 1:
            return slug
        candidate = f"{slug}-{n}"
        while candidate in self.seen:
            n += 1
            candidate = f"{slug}-{n}"
        self.seen[slug] = n
        self.seen[candidate] = 1
        return candidate


# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

_AREAS = (
    "accounts", "alerts", "archive", "audit", "billing", "catalog", "checkout", "crawler",
    "dashboard", "delivery", "events", "exports", "feeds", "gateway", "geo", "identity",
    "imports", "indexing", "inventory", "invoices", "jobs", "ledger", "locale", "mailer",
    "media", "metrics", "notify", "orders", "payments", "pricing", "profiles", "queue",
    "ranking", "reports", "search", "shipping", "storage", "sync", "tenancy", "webhooks",
    "quotas", "consent", "pipeline", "scheduler", "telemetry", "uploads", "vault", "workflow",
)
_MODULES = (
    "api", "cache", "cli", "client", "codec", "config", "core", "db", "errors", "handlers",
    "io", "loader", "models", "parser", "planner", "policy", "queries", "registry", "render",
    "retry", "rules", "schema", "serializer", "service", "store", "validate", "views", "worker",
    "adapters", "limits", "stream", "tasks",
)
_FILES = (
    "base", "batch", "builder", "checks", "compat", "context", "convert", "defaults", "diff",
    "dispatch", "encode", "fields", "format", "hooks", "index", "keys", "lookup", "merge",
    "normalize", "options", "paths", "pool", "reader", "resolve", "scan", "signals", "state",
    "types", "util", "writer", "cursor", "pager",
)
_NOUNS = (
    "reader", "writer", "retry loop", "error path", "schema check", "batch size", "timeout",
    "lookup table", "cursor", "checksum", "backoff", "pagination", "encoder", "lock", "queue",
    "snapshot", "config loader", "fixture", "index", "report", "migration", "rate limiter",
    "cache key", "audit trail",
)
_VERBS = (
    "Add", "Fix", "Split", "Type", "Measure", "Document", "Cache", "Validate", "Stream",
    "Retry", "Index", "Deprecate", "Migrate", "Harden", "Simplify", "Bound", "Trace", "Batch",
    "Parallelise", "Remove",
)
_ISSUE_PREDICATES = (
    "refuses malformed input", "survives a restart", "reports what it skipped",
    "stays under its budget", "is safe to run twice", "names the failing record",
    "streams instead of buffering", "returns typed errors", "is covered by a regression test",
    "no longer blocks the event loop", "is cancellable", "logs without personal data",
    "is configured from one place", "uses the shared retry policy", "keeps an audit trail",
    "answers within its deadline", "is idempotent", "reads the new schema",
)
_RULE_SUBJECTS = (
    "a failed read", "a retry", "every wait", "a derived file", "a migration",
    "a public function", "an error message", "a background job", "a cache entry",
    "a configuration key", "a test fixture", "a released schema", "a network call", "a log line",
    "an exit code", "a feature flag", "a deleted record", "a queue message", "a secret",
    "a timestamp", "a dependency upgrade", "a generated artifact", "a breaking change",
    "a benchmark", "a long-running task", "an import", "a database query", "a webhook",
    "a user-facing string", "a lock",
)
_RULE_PREDICATES = (
    "is not an empty answer", "is bounded", "is regenerated, never edited", "is reversible",
    "names its owner", "states its unit", "carries a reproduction", "is idempotent",
    "expires on its own", "is documented where it is read", "is hermetic", "is versioned",
    "has a timeout", "never carries a secret", "is not the diagnostic channel",
    "is removed when it is done", "is retried at most three times",
    "is measured before it is tuned", "is reviewed by a second person",
    "is typed at the boundary", "is declared once", "fails closed", "is written in UTC",
    "is pinned", "is announced before it lands", "is checked in CI", "is cancellable",
    "is logged without personal data", "leaves the tree clean", "is released by its holder",
)
_MILESTONE_PHRASES = (
    "works offline", "is observable end to end", "recovers from a partial write",
    "scales to ten thousand tenants", "is configured from one file", "reports what it skipped",
    "moves to the new store", "answers within 100 ms", "is tested against real fixtures",
    "speaks the v2 protocol", "has one owner per module", "is documented from its code",
    "runs without a network", "rejects malformed input early", "keeps an audit trail",
    "is safe to run twice", "ships behind a flag", "drops the legacy adapter",
    "is split into bounded modules", "exposes a stable API",
    "is reproducible from a clean checkout", "survives a restart", "is priced per request",
    "uses typed errors", "streams large results", "is localised", "has a measured budget",
    "is cancellable", "is replayable from its events", "is readable on a phone",
)
_ADR_SUBJECTS = (
    "The {area} {module} owns its own schema", "Errors cross the {area} boundary typed",
    "{Area} writes go through one queue", "The {module} layer is synchronous",
    "{Area} state is derived, never stored", "Retries in {area} use one shared policy",
    "The {area} cache is keyed by content", "{Area} keeps a write-ahead log",
    "Configuration for {area} is read once at start-up", "{Area} exports are streamed",
    "The {module} API is versioned in the path", "{Area} fixtures are recorded, not mocked",
    "Time in {area} is always UTC", "The {area} {module} is split by tenant",
    "{Area} jobs are idempotent by key", "Deletion in {area} is soft for thirty days",
    "The {module} parser is generated from the schema", "{Area} reports are projections",
    "Locks in {area} are leased, never held", "{Area} talks to the store through one adapter",
)
_KNOWLEDGE_TITLES = (
    "What the {area} outage taught us about the {noun}",
    "How the {area} {module} is laid out, and why",
    "Reading a {area} trace from the top",
    "The {noun} in {area} has three callers that matter",
    "Where {area} spends its time",
    "Why the {area} {module} has no {noun} of its own",
    "The order to read the {area} code in",
)
_USE_CASE_TITLES = (
    "Plan the {area} work as data", "Find what a change to {area} will touch",
    "Hand {area} work between sessions", "Explain why a decision is in the {area} context",
    "Check the {area} layer before a release", "Give a session only what {area} needs",
    "Trace a {area} rule to the code it governs",
)
_TAGS = (
    "architecture", "testing", "performance", "security", "reliability", "observability",
    "documentation", "data", "api", "governance", "coordination", "migration", "ux",
)
_BODY_SENTENCES = (
    "The {module} code in {area} grew one special case at a time, and nobody can say any more "
    "which of them are still exercised.",
    "Every caller of {area}.{module} handles a failed {noun} differently, so the same fault is "
    "reported three ways.",
    "A restart in the middle of a {noun} leaves {area} in a state no test describes.",
    "The {noun} in {area}.{module} was written before the service had more than one tenant.",
    "Profiling the nightly run put {n} % of the wall time in the {module} {noun}.",
    "Support tickets about {area} mostly trace back to the {noun}, not to the code that "
    "reports it.",
    "Two teams changed the {module} {noun} in the same week and each broke the other's tests.",
    "The current behaviour is written down nowhere but in tests/{area}, and {n} of those tests "
    "are skipped.",
    "A reviewer cannot tell from the diff whether a change to {area}.{module} is safe to run "
    "twice.",
    "The {noun} was tuned by hand for the old hardware and has not been measured since.",
    "The {module} {noun} becomes the single owner of this behaviour; callers ask it and never "
    "reimplement it.",
    "We keep the {noun} in {area}.{module} and type it at the boundary.",
    "Every {noun} carries a bound and reports when the bound is hit.",
    "A change that touches the {noun} lands with a regression test in tests/{area}.",
    "The old path stays readable for one release and is then removed — not deprecated forever.",
    "Nothing outside {area} may reach into {module} directly; it goes through the public "
    "functions.",
    "The cost is one more indirection on the hot path, measured at {n} microseconds.",
    "Callers that relied on the silent fallback now see an error, which is the point.",
    "The fixture set for {area} doubles in size, and the suite gets slower by about {n} "
    "seconds.",
    "Operators get one place to look when a {noun} misbehaves.",
    "It is easier to delete code here than to explain why it exists.",
    "When the {noun} fails, the message names the record, the field and the fix.",
    "The migration runs in batches of {n} and can be stopped between any two of them.",
    "The same defect seen twice is one finding, not two.",
)
_ACCEPTANCE = (
    "The {module} {noun} refuses a malformed record and names the field",
    "A restart during a {noun} resumes where it stopped and writes nothing twice",
    "tests/{area}/test_{module}.py covers the new path and the old one",
    "The {noun} reports its duration and the number of records it skipped",
    "No caller outside {area} imports {module} internals",
    "The {noun} stays under {n} ms at the 95th percentile on the benchmark fixture",
    "Running the change twice leaves the same state as running it once",
    "The error message names the record, the field and the fix",
)
_RISKS = (
    "The {noun} is shared with {other}; a change here may need a second merge there.",
    "The benchmark fixture may not be representative of production traffic.",
    "Callers that relied on the silent fallback will start to see errors.",
    "The migration touches every row of the {area} store; it must be resumable.",
)
_SESSION_SUMMARIES = (
    "Worked on {issue} in {area}.{module}: the {noun} now {predicate}; tests pass locally.",
    "Investigated why the {area} {noun} {predicate_not}; the cause is recorded in {issue}.",
    "Split the {module} {noun} into two functions and added a regression test for {issue}.",
    "Reviewed the open work on {issue}; nothing was changed beyond the notes.",
    "Started {issue}, then stopped when the {noun} turned out to depend on {other}; "
    "handed over.",
)


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------

_DONE, _VERIFY, _ACTIVE, _CANCELLED, _NEW = "DONE", "VERIFY", "ACTIVE", "CANCELLED", "NEW"

_DEP_COUNTS = (0, 1, 2, 3)
_DEP_WEIGHTS = _cumulative((30, 38, 22, 10))
_PRIORITIES = ("p0", "p1", "p2", "p3")
_PRIORITY_WEIGHTS = _cumulative((10, 45, 35, 10))
_ADR_STATUSES = ("accepted", "proposed", "deprecated", "rejected")
_ADR_STATUS_WEIGHTS = _cumulative((70, 20, 5, 5))


@dataclass
class _Issue:
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


class _Synth:
    def __init__(self, shape: Shape, seed: str) -> None:
        self.shape = shape
        self.seed = seed
        self.files: dict[str, str] = {}

    def rng(self, part: str) -> random.Random:
        # A string seed goes through SHA-512 in random.seed (version 2): no hash() involved.
        return random.Random(f"{self.seed}|{part}")

    def put(self, path: str, text: str) -> None:
        if path in self.files:  # pragma: no cover - a generator bug, never user input
            raise AssertionError(f"synth wrote {path} twice")
        self.files[path] = text

    def run(self) -> dict[str, bytes]:
        self.code_tree()
        self.rules()
        self.milestones()
        self.issues()
        self.adrs()
        self.knowledge()
        self.use_cases()
        self.sessions()
        self.contexts()
        self.config()
        self.sources()
        return {path: text.encode("utf-8") for path, text in self.files.items()}

    # -- prose -------------------------------------------------------------------------------

    def words(self, rng: random.Random, area: str, module: str) -> dict[str, object]:
        return {
            "area": area, "Area": _cap(area), "module": module, "noun": rng.choice(_NOUNS),
            "n": rng.randint(3, 97), "other": rng.choice(self.areas),
        }

    def sentences(self, rng: random.Random, area: str, module: str, count: int) -> str:
        w = self.words(rng, area, module)
        return " ".join(s.format(**w) for s in rng.sample(_BODY_SENTENCES, count))

    def paragraphs(self, rng: random.Random, area: str, module: str, lo: int, hi: int) -> str:
        return "\n\n".join(
            self.sentences(rng, area, module, rng.randint(2, 5)) for _ in range(rng.randint(lo, hi))
        )

    def acceptance(self, rng: random.Random, area: str, module: str, count: int) -> list[str]:
        picked = rng.sample(_ACCEPTANCE, count)
        return [s.format(**self.words(rng, area, module)) for s in picked]

    # -- the code tree the layer talks about -------------------------------------------------

    def code_tree(self) -> None:
        shape, rng = self.shape, self.rng("code")
        if shape.areas > len(_AREAS) or shape.modules_per_area > len(_MODULES) or not (
            1 <= shape.files_per_module <= len(_FILES) + 1
        ):  # pragma: no cover - the shapes are ours
            raise AssertionError("shape exceeds the vocabulary")
        self.areas: list[str] = sorted(rng.sample(_AREAS, shape.areas))
        self.modules: list[tuple[str, str]] = []
        self.module_files: dict[tuple[str, str], list[str]] = {}
        self.modules_of: dict[str, list[str]] = {}
        for area in self.areas:
            mods = sorted(rng.sample(_MODULES, shape.modules_per_area))
            self.modules_of[area] = mods
            for mod in mods:
                names = ["__init__", *sorted(rng.sample(_FILES, shape.files_per_module - 1))]
                self.modules.append((area, mod))
                self.module_files[(area, mod)] = [f"src/{area}/{mod}/{n}.py" for n in names]

    def src_file(self, rng: random.Random, area: str, module: str) -> str:
        files = self.module_files[(area, module)]
        return files[rng.randrange(len(files))]

    def any_module(self, rng: random.Random) -> tuple[str, str]:
        return self.modules[rng.randrange(len(self.modules))]

    # -- rules -------------------------------------------------------------------------------

    def rules(self) -> None:
        shape, rng = self.shape, self.rng("rules")
        combos = [(s, p) for s in _RULE_SUBJECTS for p in _RULE_PREDICATES]
        unique = _Unique()
        count = shape.rules
        picks = rng.sample(combos, min(count, len(combos)))
        while len(picks) < count:  # pragma: no cover - more rules than combinations
            picks.append(combos[rng.randrange(len(combos))])
        self.rule_ids: list[str] = []
        self.rule_latest: dict[str, int] = {}
        two_versions = {i for i in range(count) if rng.random() < 0.12}
        if count >= 5 and not two_versions:
            two_versions.add(rng.randrange(count))
        deprecated = {i for i in range(count) if rng.random() < 0.07}
        if count >= 5 and not deprecated:
            deprecated.add(rng.randrange(count))
        blocking = [rng.random() < 0.2 for _ in range(count)]
        if count >= 3 and not any(blocking):
            blocking[rng.randrange(count)] = True
        for i, (subject, predicate) in enumerate(picks):
            title = _cap(f"{subject} {predicate}")
            slug = unique(_slugify(title))
            rid = f"project.{slug}"
            latest = 2 if i in two_versions else 1
            self.rule_ids.append(rid)
            self.rule_latest[rid] = latest
            deps: list[str] = []
            if i and rng.random() < 0.55:
                for j in sorted(rng.sample(range(i), min(i, rng.randint(1, 2)))):
                    dep = self.rule_ids[j]
                    version = self.rule_latest[dep]
                    if version > 1 and rng.random() < 0.25:
                        version = 1
                    deps.append(f"{dep}@{version}")
            if count >= 2 and i == count - 1:
                # Deliberately dangling: a version that was never written, and a rule that
                # was never written at all.
                first = self.rule_ids[0]
                deps.append(f"{first}@{self.rule_latest[first] + 1}")
                deps.append(f"{_MISSING_RULE}@1")
            area, module = self.any_module(rng)
            tags = _Flow(sorted(rng.sample(_TAGS, rng.randint(1, 3))))
            for version in range(1, latest + 1):
                status = "active"
                if version == latest and i in deprecated:
                    status = "deprecated"
                elif version < latest and rng.random() < 0.5:
                    status = "deprecated"
                self.put(
                    f".ai/repo/rules/project/{slug}.v{version}.md",
                    self.rule_text(rng, rid, version, title, status,
                                   "blocking" if blocking[i] else "advisory", deps, tags,
                                   area, module),
                )

    def rule_text(self, rng: random.Random, rid: str, version: int, title: str, status: str,
                  klass: str, deps: list[str], tags: list[str], area: str, module: str) -> str:
        w = self.words(rng, area, module)
        meta: dict[str, object] = {
            "id": rid,
            "version": version,
            "kind": "rule",
            "title": title,
            "description": self.sentences(rng, area, module, rng.randint(1, 3)),
            "statement": f"{title}; in {area}.{module} the {w['noun']} is where it is checked.",
            "status": status,
            "class": klass,
            "depends_on": _Flow(deps),
            "tags": tags,
        }
        extra = ""
        if rng.random() < 0.6:
            x = {
                "validator": rng.choice(("context", "plan", "scope", "evidence")),
                "enforced_by": _Flow(["check"] if rng.random() < 0.5 else ["check", "build"]),
                "tests": _Flow([f"tests/{area}/test_{module}.py"]),
            }
            # The real layer leaves a blank line inside the front matter before this block.
            extra = "\n" + _yaml({"x-majordomus": x})
        body = (
            f"# Rationale\n\n{self.paragraphs(rng, area, module, 1, 3)}\n\n"
            f"# Required behaviour\n\n{self.paragraphs(rng, area, module, 1, 2)}\n\n"
            f"# Failure behaviour\n\n{self.sentences(rng, area, module, rng.randint(1, 3))}\n\n"
            f"# Verification\n\n```sh\npython -m pytest tests/{area}/test_{module}.py -q\n```\n"
        )
        return _front_matter(meta, body, extra)

    # -- milestones --------------------------------------------------------------------------

    def milestones(self) -> None:
        shape, rng = self.shape, self.rng("milestones")
        count = shape.milestones
        combos = [(a, p) for a in self.areas for p in _MILESTONE_PHRASES]
        picks = rng.sample(combos, min(count, len(combos)))
        while len(picks) < count:
            picks.append(combos[rng.randrange(len(combos))])
        unique = _Unique()
        self.ms_slugs: list[str] = []
        self.ms_areas: list[list[str]] = []
        self.ms_created: list[datetime] = []
        self.ms_texts: list[dict[str, object]] = []
        step = 540.0 / max(count, 1)
        dangling_at = count // 2
        for m, (area, phrase) in enumerate(picks):
            title = f"The {area} service {phrase}"
            slug = unique(_slugify(title))
            areas = [area]
            if len(self.areas) > 1 and rng.random() < 0.3:
                areas.append(rng.choice([a for a in self.areas if a != area]))
            created = _EPOCH + timedelta(days=m * step + rng.uniform(0, step))
            module = rng.choice(self.modules_of[area])
            meta: dict[str, object] = {
                "id": slug,
                "title": title,
                "slug": slug,
                "order": (m + 1) * 10,
                "priority": _weighted(rng, _PRIORITIES, _PRIORITY_WEIGHTS),
                "problem": self.sentences(rng, area, module, rng.randint(2, 4)),
                "outcome": f"{title}, and tests/{area} proves it.",
            }
            if rng.random() < 0.7:
                meta["current_state"] = self.sentences(rng, area, module, 1)
                meta["desired_state"] = (
                    f"The {area} service {phrase}; the {module} "
                    f"{rng.choice(_NOUNS)} {rng.choice(_ISSUE_PREDICATES)}."
                )
            meta["scope"] = [p for a in areas for p in (f"src/{a}", f"tests/{a}")]
            if rng.random() < 0.5:
                meta["non_scope"] = [f"Rewriting {rng.choice(self.areas)}", "A new public API"]
            meta["acceptance_criteria"] = self.acceptance(rng, area, module, rng.randint(2, 4))
            meta["validation"] = [f"python -m pytest tests/{a} -q" for a in areas]
            meta["evidence_required"] = (
                [f"{area}_{_slugify(phrase, 40).replace('-', '_')}"] if rng.random() < 0.5 else []
            )
            deps: list[str] | None = []
            roll = rng.random()
            if roll < 0.25:
                deps = None  # the key is left out, as on a quarter of the real milestones
            elif roll < 0.7 and m:
                window = list(range(max(0, m - 6), m))
                deps = [self.ms_slugs[j] for j in sorted(rng.sample(window, min(len(window),
                                                                              rng.randint(1, 2))))]
            if m == dangling_at:
                deps = [*(deps or []), _MISSING_MILESTONE]  # deliberately dangling
            if deps is not None:
                meta["depends_on"] = deps
            if rng.random() < 0.35:
                meta["risks"] = [rng.choice(_RISKS).format(**self.words(rng, area, module))]
            self.ms_slugs.append(slug)
            self.ms_areas.append(areas)
            self.ms_created.append(created)
            self.ms_texts.append(meta)
        self.ms_last_update = list(self.ms_created)

    def write_milestones(self) -> None:
        for m, meta in enumerate(self.ms_texts):
            meta["created_at"] = _d(self.ms_created[m])
            if self.ms_last_update[m] != self.ms_created[m] or m % 11 != 5:
                meta["updated_at"] = _d(self.ms_last_update[m])
            self.put(f".ai/repo/project/milestones/{meta['slug']}.yaml", _yaml(meta))

    # -- issues ------------------------------------------------------------------------------

    def issues(self) -> None:
        shape, rng = self.shape, self.rng("issues")
        n = shape.issues
        # Ids run from I0001 with one gap: the missing number is the deliberately dangling
        # dependency of the issue after it (a withdrawn issue whose file is gone).
        self.gap = max(1, -(-7 * n // 10)) if n else 0
        numbers = [k for k in range(1, n + 2) if k != self.gap] if n else []
        # Contiguous blocks of issues per milestone, of varying size.
        weights = [rng.uniform(0.5, 1.5) for _ in range(shape.milestones)]
        total = sum(weights)
        bounds, acc = [], 0.0
        for w in weights:
            acc += w
            bounds.append(round(n * acc / total))
        ms_of: list[int] = []
        start = 0
        for m, end in enumerate(bounds):
            ms_of.extend([m] * (end - start))
            start = end
        # Lifecycle: earlier issues tend to be further along.
        order = sorted(range(n), key=lambda i: (i / max(n, 1) + rng.uniform(0.0, 0.12), i))
        few = 1 if n >= 8 else 0
        quotas = [(_DONE, round(0.40 * n)), (_VERIFY, max(few, round(0.05 * n))),
                  (_ACTIVE, max(few, round(0.08 * n)))]
        states = [_NEW] * n
        pos = 0
        for state, quota in quotas:
            for i in order[pos:pos + quota]:
                states[i] = state
            pos += quota
        rest = sorted(order[pos:])
        for i in rng.sample(rest, min(len(rest), max(few, round(0.01 * n)))):
            states[i] = _CANCELLED
        # A few titles use the dialect's unquoted ": ".
        quirky = set(rng.sample(range(n), min(n, max(1, n // 40)))) if n else set()

        self.issue_list: list[_Issue] = []
        done_all: list[int] = []
        done_in_ms: dict[int, list[int]] = {}
        ms_first: dict[int, int] = {}
        done_before_ms: dict[int, int] = {}
        for i in range(n):
            m = ms_of[i]
            if m not in ms_first:
                ms_first[m] = i
                done_before_ms[m] = len(done_all)
            areas = self.ms_areas[m]
            area = areas[0] if rng.random() < 0.8 else rng.choice(areas)
            module = rng.choice(self.modules_of[area])
            issue = _Issue(number=numbers[i], ident=f"I{numbers[i]:04d}", milestone=m,
                           area=area, module=module, state=states[i])
            self.issue_list.append(issue)
            # Dependencies: lower-numbered issues only (a DAG), mostly of the same milestone;
            # work that has started depends only on work that is done.
            want = _weighted(rng, _DEP_COUNTS, _DEP_WEIGHTS)
            # A cancelled issue was sometimes started before it was dropped.
            started = states[i] in (_DONE, _VERIFY, _ACTIVE) or (
                states[i] == _CANCELLED and rng.random() < 0.3
            )
            deps: set[int] = set()
            for _ in range(want):
                same = rng.random() < 0.85
                if started:
                    pool = done_in_ms.get(m, []) if same else done_all[
                        max(0, done_before_ms[m] - 50):done_before_ms[m]]
                    if pool:
                        deps.add(pool[rng.randrange(len(pool))])
                else:
                    lo, hi = (ms_first[m], i) if same else (max(0, ms_first[m] - 60), ms_first[m])
                    if hi > lo:
                        deps.add(rng.randrange(lo, hi))
            self.write_issue(rng, issue, i, sorted(deps), quirky, started)
            if states[i] == _DONE:
                done_all.append(i)
                done_in_ms.setdefault(m, []).append(i)
        self.write_milestones()

    def write_issue(self, rng: random.Random, issue: _Issue, i: int, deps: list[int],
                    quirky: set[int], was_started: bool) -> None:
        area, module, m = issue.area, issue.module, issue.milestone
        w = self.words(rng, area, module)
        predicate = rng.choice(_ISSUE_PREDICATES)
        form = rng.randrange(3)
        if form == 0:
            title = f"{rng.choice(_VERBS)} the {module} {w['noun']} in {area}"
        elif form == 1:
            title = f"The {area} {module} {w['noun']} {predicate}"
        else:
            title = f"{rng.choice(_VERBS)} {w['noun']} handling in {area}.{module}"
        slug = _slugify(title)
        if i in quirky:
            title = _Raw(f"Phase {rng.randint(1, 9)}: the {module} {w['noun']} {predicate}")
        issue.slug = slug
        issue.profile = "deep-work" if rng.random() < 0.2 else "implementation"
        # Scope: the module (or one or two of its files), the tests, sometimes a sibling.
        files = self.module_files[(area, module)]
        scope: list[str] = []
        if rng.random() < 0.5:
            scope.append(f"src/{area}/{module}")
            scope_files = list(files)
        else:
            scope_files = sorted(rng.sample(files, min(len(files), rng.randint(1, 2))))
            scope.extend(scope_files)
        scope.append(f"tests/{area}" if rng.random() < 0.5 else f"tests/{area}/test_{module}.py")
        siblings = self.modules_of[area]
        if len(scope) < 4 and len(siblings) > 1 and rng.random() < 0.3:
            other = rng.choice([s for s in siblings if s != module])
            scope.append(f"src/{area}/{other}")
            scope_files.extend(self.module_files[(area, other)])
        issue.scope_files = tuple(scope_files)
        noun_key = w["noun"].replace(" ", "_")
        evidence_required = sorted({
            f"{module}_{noun_key}_{rng.choice(('refuses', 'resumes', 'reports', 'bounds'))}"
            for _ in range(rng.randint(1, 2))
        })
        meta: dict[str, object] = {
            "id": issue.ident,
            "milestone": self.ms_slugs[m],
            "title": title,
            "slug": slug,
            "priority": _weighted(rng, _PRIORITIES, _PRIORITY_WEIGHTS),
            "profile": issue.profile,
            "parallel_safe": rng.random() < 0.6,
            "objective": f"Ensure the {area}.{module} {w['noun']} {predicate}. "
            + self.sentences(rng, area, module, 1),
            "why": self.sentences(rng, area, module, rng.randint(1, 3)),
            "current_state": self.sentences(rng, area, module, 1),
        }
        if rng.random() < 0.6:
            meta["desired_state"] = f"The {module} {w['noun']} {predicate}."
        meta["scope"] = scope
        if rng.random() < 0.25:
            meta["non_scope"] = [f"Changes outside src/{area}", "A new dependency"]
        dep_ids = [self.issue_list[d].ident for d in deps]
        if issue.number == self.gap + 1:
            # Deliberately dangling: the number before this one was never written.
            dep_ids = sorted([f"I{self.gap:04d}", *dep_ids[:2]], key=lambda d: int(d[1:]))
        if dep_ids or rng.random() > 0.12:
            meta["depends_on"] = dep_ids
        meta["acceptance_criteria"] = self.acceptance(rng, area, module, rng.randint(2, 4))
        meta["validation"] = [f"python -m pytest tests/{area}/test_{module}.py -q"] + (
            [f"ruff check src/{area}/{module}"] if rng.random() < 0.4 else []
        )
        meta["evidence_required"] = evidence_required
        if rng.random() < 0.2:
            meta["risk"] = rng.choice(_RISKS).format(**w)
        # Lifecycle facts, in time order after the milestone and the dependencies.
        created = self.ms_created[m] + timedelta(days=rng.uniform(0, 10))
        created_text = _d(created)
        meta["created_at"] = created_text if rng.random() > 0.03 else str(created_text)
        updated = created
        state = issue.state
        if was_started:
            earliest = max([created] + [self.issue_list[d].completed or created for d in deps])
            started = earliest + timedelta(hours=rng.uniform(2, 24 * 20))
            issue.started = started
            updated = started
            facts: dict[str, object] = {"started_at": _dt(started)}
            if rng.random() < 0.5:
                facts["started_event"] = f"sha256:{_hex(rng, 64)}"
            evidence: list[dict[str, object]] = []
            if state in (_DONE, _VERIFY):
                verified = started + timedelta(minutes=rng.uniform(20, 60 * 72))
                facts["verified_at"] = _dt(verified)
                if rng.random() < 0.5:
                    facts["verified_event"] = f"sha256:{_hex(rng, 64)}"
                updated = verified
                if state == _DONE or rng.random() < 0.5:
                    commit = _hex(rng, 40)
                    for covers in evidence_required:
                        recorded = started + (verified - started) * rng.uniform(0.5, 1.0)
                        passed = rng.randint(1, 40)
                        evidence.append({
                            "covers": covers,
                            "type": "test",
                            "command": f"python -m pytest tests/{area}/test_{module}.py "
                            f"-k {covers} -q",
                            "result": f"{passed} passed in {rng.uniform(0.05, 9):.2f}s",
                            "commit": commit,
                            "recorded_at": _dt(recorded.replace(microsecond=0)),
                        })
                if state == _DONE:
                    completed = verified + timedelta(minutes=rng.uniform(5, 60 * 48))
                    issue.completed = completed
                    facts["completed_at"] = _dt(completed)
                    updated = completed
            meta["updated_at"] = _dt(updated)
            meta.update(facts)
            if evidence:
                meta["evidence"] = evidence
        else:
            if rng.random() < 0.4:
                updated = created + timedelta(days=rng.uniform(0, 30))
            meta["updated_at"] = _d(updated)
        if state == _CANCELLED:
            cancelled = updated + timedelta(days=rng.uniform(0.5, 20))
            updated = cancelled
            meta["updated_at"] = _dt(cancelled)
            meta["cancelled_at"] = _dt(cancelled)
            meta["cancelled_because"] = rng.choice((
                f"Superseded by the {area} redesign; the {module} {w['noun']} is going away.",
                "Duplicate of work already tracked in the same milestone.",
                f"Measured first: the {w['noun']} is not the bottleneck.",
            ))
        if updated > self.ms_last_update[m]:
            self.ms_last_update[m] = updated
        self.put(f".ai/repo/project/issues/{issue.ident}.yaml", _yaml(meta))

    # -- ADRs --------------------------------------------------------------------------------

    def adrs(self) -> None:
        shape, rng = self.shape, self.rng("adrs")
        count = shape.adrs
        # Numbers 1..count+1 with one gap; the ADR after the gap supersedes the missing one.
        gap = max(2, count // 2)
        numbers = [k for k in range(1, count + 2) if k != gap]
        supersedes: dict[int, list[int]] = {}
        superseded: set[int] = set()
        free = list(range(count))
        for k in range(max(1, count // 12)):
            length = 3 if k == 0 else rng.choice((2, 2, 3))  # at least one chain of three
            if len(free) < length:
                break
            chain = sorted(rng.sample(free, length))
            for index in chain:
                free.remove(index)
            for earlier, later in zip(chain, chain[1:]):
                supersedes.setdefault(later, []).append(numbers[earlier])
                superseded.add(earlier)
        step = 540.0 / count
        for index, number in enumerate(numbers):
            area, module = self.any_module(rng)
            title = rng.choice(_ADR_SUBJECTS).format(area=area, Area=_cap(area), module=module)
            status = _weighted(rng, _ADR_STATUSES, _ADR_STATUS_WEIGHTS)
            if index in superseded:
                status = "superseded" if rng.random() < 0.9 else "accepted"
            elif index in supersedes:
                status = "accepted" if rng.random() < 0.8 else "proposed"
            refs = [f"adr-{k:04d}" for k in supersedes.get(index, [])]
            if number == gap + 1:
                refs.append(f"adr-{gap:04d}")  # deliberately dangling
            when = _EPOCH + timedelta(days=index * step + rng.uniform(0, step))
            tags = sorted(rng.sample(_TAGS, rng.randint(1, 3)))
            related: list[str] = []
            for _ in range(rng.randint(1, 2)):
                related.append(f"rule:{self.rule_ids[rng.randrange(len(self.rule_ids))]}")
            related.append(f"file:{self.src_file(rng, area, module)}")
            if rng.random() < 0.6:
                related.append(f"test:tests/{area}/test_{module}.py")
            meta: dict[str, object] = {
                "schema": "adr/v1",
                "id": f"adr-{number:04d}",
                "kind": "adr",
                "title": title,
                "status": status,
                "date": _d(when),
                "tags": _Flow(tags) if rng.random() < 0.5 else tags,
                "related": list(dict.fromkeys(related)),
            }
            if refs:
                meta["supersedes"] = _Flow(refs)
            meta["provenance"] = (
                {"origin": "authored"} if rng.random() < 0.7
                else {"origin": "extracted",
                      "derived_from": [f"file:{self.src_file(rng, area, module)}"]}
            )
            body = [f"# {number}. {title}", "", "## Context", "",
                    self.paragraphs(rng, area, module, 1, 4), "", "## Decision", "",
                    self.paragraphs(rng, area, module, 1, 3), ""]
            if refs:
                body += [f"This decision replaces {', '.join(r.upper() for r in refs)}.", ""]
            if rng.random() < 0.5:
                body += ["## Alternatives rejected", "",
                         self.paragraphs(rng, area, module, 1, 2), ""]
            body += ["## Consequences", "", self.paragraphs(rng, area, module, 1, 2), ""]
            slug = _slugify(title)
            self.put(f".ai/repo/adrs/{number:04d}-{slug}.md", _front_matter(meta, "\n".join(body)))

    # -- knowledge, use cases, sessions ------------------------------------------------------

    def knowledge(self) -> None:
        rng = self.rng("knowledge")
        unique = _Unique()
        for _ in range(self.shape.knowledge):
            area, module = self.any_module(rng)
            w = self.words(rng, area, module)
            title = rng.choice(_KNOWLEDGE_TITLES).format(**w)
            ident = unique(_slugify(title))
            lesson = rng.random() < 0.5
            when = _EPOCH + timedelta(days=rng.uniform(0, 560))
            meta = {
                "schema": "knowledge/v1",
                "id": ident,
                "kind": "knowledge",
                "class": "lesson" if lesson else "convention",
                "title": title,
                "description": self.sentences(rng, area, module, 1),
                "status": "verified" if rng.random() < 0.8 else "draft",
                "epistemics": "observed" if lesson else "decided",
                "date": _d(when),
                "tags": [area, *sorted(rng.sample(_TAGS, rng.randint(1, 2)))],
                "provenance": {"origin": "authored",
                               "derived_from": [f"file:{self.src_file(rng, area, module)}"]},
                "relations": [{"type": "documents", "target": f"file:src/{area}/{module}"}],
            }
            body = f"# {title}\n\n{self.paragraphs(rng, area, module, 2, 5)}\n"
            self.put(f".ai/repo/knowledge/curated/{ident}.md", _front_matter(meta, body))

    def use_cases(self) -> None:
        rng = self.rng("use-cases")
        unique = _Unique()
        for _ in range(self.shape.use_cases):
            area, module = self.any_module(rng)
            title = rng.choice(_USE_CASE_TITLES).format(area=area)
            ident = unique(_slugify(title))
            command = rng.choice(("plan", "compile", "explain", "query", "check", "build"))
            meta = {
                "id": ident,
                "kind": "use-case",
                "title": title,
                "summary": self.sentences(rng, area, module, 1),
                "category": rng.choice(("adoption", "knowledge", "planning", "governance")),
                "status": "active" if rng.random() < 0.85 else "draft",
                "target": "guaranteed" if rng.random() < 0.6 else "aspirational",
                "actors": _Flow(["maintainer", "agent"]),
                "difficulty": rng.choice(("introductory", "intermediate", "advanced")),
                "commands": _Flow([command]),
                "doctrines": _Flow(sorted(rng.sample(self.rule_ids,
                                                     min(len(self.rule_ids), rng.randint(1, 3))))),
                "claims": _Flow([]),
            }
            body = (
                f"# Situation\n\n{self.paragraphs(rng, area, module, 1, 2)}\n\n"
                "# Scenario\n\n```yaml\nsetup: synthetic-layer\ngiven:\n"
                f"  - 'a layer whose {area} milestone has two issues, the second depending on "
                "the first'\nsteps:\n"
                f"  - id: {command}\n    run: ['{command}']\n    expect:\n      exit: 0\n"
                "then:\n  - 'the answer is derived from the records, never stored in them'\n"
                f"```\n\n# Outcome\n\n{self.sentences(rng, area, module, 2)}\n"
            )
            self.put(f".ai/repo/use-cases/{ident}.md", _front_matter(meta, body))

    def sessions(self) -> None:
        rng = self.rng("sessions")
        worked = [x for x in self.issue_list if x.started is not None]
        seen: set[str] = set()
        for _ in range(self.shape.sessions):
            issue = None
            pool = worked or self.issue_list
            if pool and rng.random() < 0.85:
                issue = pool[rng.randrange(len(pool))]
            if issue is not None and issue.started is not None:
                started = issue.started - timedelta(minutes=rng.uniform(0, 90))
            else:
                started = _EPOCH + timedelta(days=rng.uniform(0, 560))
            started = started.replace(microsecond=0)
            closed = started + timedelta(seconds=rng.randint(60, 4 * 3600))
            if issue is not None and rng.random() < 0.8:
                branch = "feature/" + _slugify(issue.slug, 40)
            else:
                branch = "main"
            head = _hex(rng, 40)
            session_id = f"s-{started.strftime('%Y%m%d%H%M%S')}-{_hex(rng, 4)}"
            while session_id in seen:  # pragma: no cover - astronomically rare
                session_id = f"s-{started.strftime('%Y%m%d%H%M%S')}-{_hex(rng, 4)}"
            seen.add(session_id)
            if issue is not None:
                files = list(issue.scope_files)
                area, module = issue.area, issue.module
            else:
                area, module = self.any_module(rng)
                files = list(self.module_files[(area, module)])
            changed = sorted(rng.sample(files, min(len(files), rng.randint(1, 5))))
            if issue is not None and rng.random() < 0.4:
                changed.append(f".ai/repo/project/issues/{issue.ident}.yaml")
            outcome = "closed" if rng.random() < 0.85 else "interrupted"
            commits = sorted(_hex(rng, 40) for _ in range(rng.randint(0, 3)))
            meta: dict[str, object] = {
                "schema": "session/v1",
                "kind": "session",
                "created_at": _dt(closed),
                "task_id": f"t-{started.strftime('%Y%m%d%H%M%S')}-{_hex(rng, 4)}"
                if issue is not None else "none",
                "profile": issue.profile if issue is not None else "none",
                "repository_id": "git@github.com:example/harbour.git",
                "worktree_id": _hex(rng, 16),
                "branch": branch,
                "head": head,
                "working_tree": "dirty" if rng.random() < 0.6 else "clean",
                "changed_files": changed,
                "session_id": session_id,
                "started_at": _dt(started),
                "closed_at": _dt(closed),
                "outcome": outcome,
                "title": f"Session {session_id} on {branch}",
            }
            if rng.random() < 0.5:
                meta["worker"] = rng.choice(("claude-code/opus-5", "codex/gpt-5", "human"))
            meta["start_head"] = head
            meta["start_working_tree"] = "clean"
            meta["commits"] = commits
            meta["tasks"] = []
            meta["issues"] = [issue.ident] if issue is not None else []
            meta["milestones"] = [self.ms_slugs[issue.milestone]] if issue is not None else []
            for key in ("checkpoints", "handovers", "decisions", "questions", "evidence"):
                meta[key] = []
            w = self.words(rng, area, module)
            summary = rng.choice(_SESSION_SUMMARIES).format(
                issue=issue.ident if issue is not None else "no tracked issue",
                predicate=rng.choice(_ISSUE_PREDICATES),
                predicate_not="fails under load", **w,
            )
            name = (f"{_stamp(closed)}--{session_id}--{branch.replace('/', '-')}--{head[:7]}"
                    f"--{_hex(rng, 16)}.md")
            self.put(f".ai/repo/sessions/{name}", _front_matter(meta, summary + "\n"))

    # -- directory contracts -----------------------------------------------------------------

    def contexts(self) -> None:
        rng = self.rng("contexts")
        docs = (
            (".ai", "ai.layer", "Repository AI context",
             "The protocol of the layer: what it holds, how it is discovered, what outranks what.",
             "final", 10),
            (".ai/repo", "ai.repo", "Tracked repository context",
             "The tracked half of the layer and what each section under it is for.", "extend", 20),
            (".ai/repo/adrs", "ai.repo.adrs", "Architecture decisions",
             "Accepted, durable decisions about how this repository is built.", "extend", 100),
            (".ai/repo/knowledge", "ai.repo.knowledge", "Knowledge",
             "Which tracked files are knowledge, and the notes the repository keeps.",
             "extend", 100),
            (".ai/repo/knowledge/curated", "ai.repo.knowledge.curated", "Curated notes",
             "What this repository chose to write about itself.", "extend", 100),
            (".ai/repo/profiles", "ai.repo.profiles", "Execution profiles",
             "How much effort and context each kind of work is given.", "extend", 100),
            (".ai/repo/project", "ai.repo.project", "Project model",
             "Milestones are outcomes, issues are execution contracts; status is derived.",
             "extend", 100),
            (".ai/repo/project/issues", "ai.repo.project.issues", "Issues",
             # The real layer's description carries an unquoted ": " here as well.
             _Raw("Execution contracts: one bounded change each, with its scope and evidence."),
             "extend", 100),
            (".ai/repo/project/milestones", "ai.repo.project.milestones", "Milestones",
             "Outcomes the issues add up to, ordered, with the paths they cover.", "extend", 100),
            (".ai/repo/prompts", "ai.repo.prompts", "Prompt assets",
             "The provider-neutral prompts the tool renders.", "extend", 100),
            (".ai/repo/rules", "ai.repo.rules", "Repository rules",
             "The rule object format, where rules live, how they are loaded and composed.",
             "extend", 100),
            (".ai/repo/rules/project", "ai.repo.rules.project", "Project rules",
             "The rules this repository wrote for itself, one file each.", "extend", 100),
            (".ai/repo/sessions", "ai.repo.sessions", "Session records",
             "Closed working sessions, one file each, named by when they closed.", "extend", 100),
            (".ai/repo/use-cases", "ai.repo.use-cases", "Use cases",
             "Executable scenarios: what a person runs and what they get.", "extend", 100),
        )
        for directory, ident, title, description, composition, order in docs:
            meta: dict[str, object] = {
                "schema": "context/v1",
                "id": ident,
                "kind": "context",
                "title": title,
                "description": description,
                "status": "active",
                "scope": "subtree",
                "providers": _Flow(["*"]),
                "audience": _Flow(["human", "agent"]),
                "composition": composition,
                "order": order,
            }
            tracks: list[str] = []
            if ident == "ai.repo.adrs":
                tracks.append(_MISSING_TRACKED_PATH)  # deliberately dangling
            if order == 100 and rng.random() < 0.5:
                area, module = self.any_module(rng)
                tracks.append(f"src/{area}" if rng.random() < 0.6
                              else self.src_file(rng, area, module))
            if tracks:
                meta["tracks"] = _Flow(tracks)
            if ident == "ai.repo.rules":
                meta["children"] = {"require_contract": True}
            area, module = self.any_module(rng)
            body = (f"# {title}\n\n{description}\n\n"
                    f"{self.paragraphs(rng, area, module, 1, 3)}\n")
            self.put(f"{directory}/README.md", _front_matter(meta, body))
        self.put("README.md", (
            "# Harbour\n\nA synthetic repository written by `generator.synth` for the devcontext "
            "site's tests and benchmarks. Its code lives under `src/`, its tests under `tests/`, "
            "and its AI layer under `.ai/`.\n\n"
            + "\n".join(f"- `src/{a}`" for a in self.areas) + "\n"
        ))

    # -- configuration -----------------------------------------------------------------------

    def config(self) -> None:
        sections = {
            "policy": "repo/policy.yaml", "scope": "repo/scope.yaml",
            "profiles": "repo/profiles", "rules": "repo/rules", "prompts": "repo/prompts",
            "skills": "repo/skills", "workflows": "repo/workflows",
            "knowledge": "repo/knowledge", "adrs": "repo/adrs", "project": "repo/project",
            "sessions": "repo/sessions", "use-cases": "repo/use-cases",
        }
        self.put(".ai/manifest.yaml", (
            f"# A synthetic AI layer written by {_MANIFEST_MARKER} (devcontext-site).\n"
            "# Deterministic: regenerate it rather than editing it.\n"
            + _yaml({
                "schema": "ai-repository/v1",
                "repo": {"path": "repo"},
                "local": {"path": "local", "tracked": False, "implicit_context": False},
                "sections": sections,
                "context": {"documents": _Flow(["README.md"])},
            })
        ))
        classes = (
            ("policy", "policy", ".ai/repo/policy.yaml", True),
            ("scope", "scope", ".ai/repo/scope.yaml", False),
            ("profile", "profile", ".ai/repo/profiles/*.yaml", True),
            ("rule", "rule", ".ai/repo/rules/**/*.md", True),
            ("prompt", "prompt", ".ai/repo/prompts/*.md", False),
            ("milestone", "milestone", ".ai/repo/project/milestones/*.yaml", False),
            ("issue", "issue", ".ai/repo/project/issues/*.yaml", False),
            ("use_case", "use-case", ".ai/repo/use-cases/*.md", False),
            ("readme", "document", "*.md", False),
            ("source", "implementation", "src/**/*.py", False),
            ("tests", "test", "tests/**/*.py", False),
        )
        self.put(".ai/repo/knowledge/sources.yaml", (
            "# The repository's knowledge sources: which tracked files are knowledge, in which "
            "class.\n"
            + _yaml({"version": 1, "sources": [
                {"id": ident, "kind": kind, "discovery": "vcs", "pathspec": f":(glob){spec}",
                 "required": required}
                for ident, kind, spec, required in classes
            ]})
        ))
        self.put(".ai/repo/policy.yaml", _yaml({
            "version": 1,
            "context": {
                "always_loaded_budget_lines": 150, "builder_budget_lines": 300,
                "recent_decisions": 5, "max_list_items": 20, "strategy": "minimum-sufficient",
                "transcript_is_state": False,
            },
            "profiles": {"default": "implementation", "checkpoint_interval_default": "15m"},
            "verification": {
                "required_for_changes": True,
                "finish_requires": ["scope_respected", "verification_ran", "state_updated"],
            },
            "checkpoint": {"max_body_lines": 40, "retention_max_files": 500},
            "handover": {"required_sections": _Flow(["Objective", "Current State",
                                                     "Next Action"]),
                         "retention_max_files": 200},
            "session": {"briefing_on_start": True, "briefing_budget_lines": 60},
            "enforcement": [{"name": "check-on-commit", "path": "bin/devcontext",
                             "args": _Flow(["check"]), "wired_by": "git-hook:pre-commit"}],
            "projections": [{"provider": "agents", "target": "AGENTS.md",
                             "always_loaded": True}],
        }))
        self.put(".ai/repo/scope.yaml", _yaml({
            "version": 1,
            "in": [".ai/manifest.yaml", ".ai/README.md", ".ai/repo/**", "src/**", "tests/**",
                   "README.md", "pyproject.toml"],
            "out": {
                "paths": [".git/", ".ai/local/", "**/__pycache__/", "**/build/", "**/dist/"],
                "binary": True,
                "max_bytes": 1048576,
                "archive": {"names": _Flow(["*.zip", "*.tar", "*.tar.gz", "*.whl"])},
                "image": {"names": _Flow(["*.png", "*.jpg", "*.gif", "*.svg"])},
                "secret": {"paths": [], "names": _Flow([".env", ".env.*", "*.pem", "*.key"])},
            },
        }))
        self.put(".ai/repo/profiles/implementation.yaml", _yaml({
            "name": "implementation",
            "description": "build a described feature or change within a known design",
            "capability": "standard", "effort": "medium", "verbosity": "concise",
            "presentation": "engineering", "reasoning": "standard",
            "context": {"task": True, "current_state": True, "decisions": True,
                        "relevant_files": True, "failing_output": False,
                        "recent_history_depth": 0, "architecture_notes": False},
            "verification": {"verify_command_required": True, "regression_test_required": False,
                             "decision_record_required": False},
            "checkpoint_interval": "15m",
            "output_contract": _Flow(["outcome", "changes", "verification", "blockers",
                                      "next_action"]),
        }))
        self.put(".ai/repo/profiles/deep-work.yaml", _yaml({
            "name": "deep-work",
            "description": "design, architecture, cross-cutting change, or a problem with no "
            "known shape",
            "capability": "strongest", "effort": "high",
            "effort_escalation": {"after_blocked_attempts": 1, "to": "xhigh"},
            "verbosity": "detailed", "presentation": "engineering", "reasoning": "strict",
            "context": {"task": True, "current_state": True, "decisions": True,
                        "relevant_files": True, "failing_output": False,
                        "recent_history_depth": 200, "architecture_notes": True},
            "verification": {"verify_command_required": True, "regression_test_required": False,
                             "decision_record_required": True},
            "checkpoint_interval": "30m",
            "output_contract": _Flow(["outcome", "changes", "verification", "blockers",
                                      "next_action", "decisions"]),
        }))
        self.put(".ai/repo/prompts/handover.md", _front_matter(
            {"name": "handover",
             "description": "produce a continuation record body for the current task"},
            "# Produce a continuation record body for the current task\n\n"
            "Write the body of a handover for task {{TASK_ID}} ({{TASK}}) as of {{NOW}},\n"
            "branch {{BRANCH}}, head {{HEAD}}.\n\nLatest checkpoint:\n{{CHECKPOINT}}\n\n"
            "Write exactly these sections: # Objective, # Current State, # Next Action.\n",
        ))
        self.put(".ai/repo/prompts/continue.md", _front_matter(
            {"name": "continue", "description": "resume the active task from its context"},
            "# Continue the active task\n\nYou are resuming {{TASK_ID}} on {{BRANCH}}.\n\n"
            "{{CONTEXT}}\n\nDo the next action the handover names, then verify it.\n",
        ))
        self.put(".ai/repo/project/project.yaml", (
            "# The canonical project model. No status is stored: it is derived from the facts.\n"
            + _yaml({"schema_version": 1, "name": "Harbour", "repository": "example/harbour",
                     "default_branch": "main"})
        ))

    # -- source and tests --------------------------------------------------------------------

    def sources(self) -> None:
        rng = self.rng("sources")
        verbs = ("load", "parse", "build", "check", "merge", "render", "resolve", "count",
                 "split", "encode", "fetch", "store")
        objects = ("record", "batch", "rows", "key", "entry", "config", "payload", "window",
                   "cursor", "index")
        for area, module in self.modules:
            tested: list[tuple[str, str]] = []
            for path in self.module_files[(area, module)]:
                name = PurePosixPath(path).stem
                if name == "__init__":
                    self.put(path, f'"""The {module} package of {area}."""\n\n'
                                   "__all__: list[str] = []\n")
                    continue
                count = min(40, int(rng.paretovariate(1.3)))
                parts = [
                    f'"""{_cap(area)} {module}: {name}.\n\n'
                    f'{self.sentences(rng, area, module, 1)}\n"""\n',
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
                self.put(path, "\n".join(parts))
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
            self.put(f"tests/{area}/test_{module}.py",
                     "".join(head) + "\n\n" + "\n\n".join(cases))


# --------------------------------------------------------------------------------------------
# Writing helpers
# --------------------------------------------------------------------------------------------

_OWNED_ROOTS = (".ai", "src", "tests")


def _checked_rel_path(rel: str) -> tuple[str, ...]:
    if not isinstance(rel, str) or not rel or "\\" in rel or rel.startswith("/"):
        raise InputError(f"file path {rel!r} must be a relative path with forward slashes",
                         path=str(rel))
    parts = tuple(rel.split("/"))
    if any(p in ("", ".", "..") for p in parts) or ":" in parts[0]:
        raise InputError(f"file path {rel!r} must stay inside the output directory "
                         "(no empty, '.' or '..' segments)", path=rel)
    return parts


def _is_synth_manifest(manifest: Path) -> bool:
    try:
        with manifest.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    return _MANIFEST_MARKER.encode() in head


def _stale_files(out: Path, keep: set[str]) -> list[Path]:
    """Files of an earlier synth output that the new one no longer has."""
    stale: list[Path] = []
    candidates = [out / "README.md"] if (out / "README.md").is_file() else []
    for root in _OWNED_ROOTS:
        base = out / root
        if not base.is_dir() or base.is_symlink():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            rel_dir = Path(dirpath).relative_to(out).as_posix()
            dirnames[:] = sorted(d for d in dirnames
                                 if not (rel_dir == ".ai" and d == "local"))
            candidates.extend(Path(dirpath) / f for f in sorted(filenames))
    for path in candidates:
        if path.relative_to(out).as_posix() not in keep:
            stale.append(path)
    return stale


def _prune_empty_dirs(out: Path, removed: list[Path]) -> None:
    parents = sorted({p.parent for p in removed}, key=lambda p: len(p.parts), reverse=True)
    for directory in parents:
        while directory != out and out in directory.parents:
            try:
                directory.rmdir()
            except OSError:
                break
            directory = directory.parent

