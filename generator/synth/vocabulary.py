"""The words synthetic records are made of: areas, modules and files of the code tree, and the
templates of titles, sentences, acceptance criteria, risks and session summaries."""

from __future__ import annotations

from .text import cumulative

AREAS = (
    "accounts", "alerts", "archive", "audit", "billing", "catalog", "checkout", "crawler",
    "dashboard", "delivery", "events", "exports", "feeds", "gateway", "geo", "identity",
    "imports", "indexing", "inventory", "invoices", "jobs", "ledger", "locale", "mailer",
    "media", "metrics", "notify", "orders", "payments", "pricing", "profiles", "queue",
    "ranking", "reports", "search", "shipping", "storage", "sync", "tenancy", "webhooks",
    "quotas", "consent", "pipeline", "scheduler", "telemetry", "uploads", "vault", "workflow",
)
MODULES = (
    "api", "cache", "cli", "client", "codec", "config", "core", "db", "errors", "handlers",
    "io", "loader", "models", "parser", "planner", "policy", "queries", "registry", "render",
    "retry", "rules", "schema", "serializer", "service", "store", "validate", "views", "worker",
    "adapters", "limits", "stream", "tasks",
)
FILES = (
    "base", "batch", "builder", "checks", "compat", "context", "convert", "defaults", "diff",
    "dispatch", "encode", "fields", "format", "hooks", "index", "keys", "lookup", "merge",
    "normalize", "options", "paths", "pool", "reader", "resolve", "scan", "signals", "state",
    "types", "util", "writer", "cursor", "pager",
)
NOUNS = (
    "reader", "writer", "retry loop", "error path", "schema check", "batch size", "timeout",
    "lookup table", "cursor", "checksum", "backoff", "pagination", "encoder", "lock", "queue",
    "snapshot", "config loader", "fixture", "index", "report", "migration", "rate limiter",
    "cache key", "audit trail",
)
VERBS = (
    "Add", "Fix", "Split", "Type", "Measure", "Document", "Cache", "Validate", "Stream",
    "Retry", "Index", "Deprecate", "Migrate", "Harden", "Simplify", "Bound", "Trace", "Batch",
    "Parallelise", "Remove",
)
ISSUE_PREDICATES = (
    "refuses malformed input", "survives a restart", "reports what it skipped",
    "stays under its budget", "is safe to run twice", "names the failing record",
    "streams instead of buffering", "returns typed errors", "is covered by a regression test",
    "no longer blocks the event loop", "is cancellable", "logs without personal data",
    "is configured from one place", "uses the shared retry policy", "keeps an audit trail",
    "answers within its deadline", "is idempotent", "reads the new schema",
)
RULE_SUBJECTS = (
    "a failed read", "a retry", "every wait", "a derived file", "a migration",
    "a public function", "an error message", "a background job", "a cache entry",
    "a configuration key", "a test fixture", "a released schema", "a network call", "a log line",
    "an exit code", "a feature flag", "a deleted record", "a queue message", "a secret",
    "a timestamp", "a dependency upgrade", "a generated artifact", "a breaking change",
    "a benchmark", "a long-running task", "an import", "a database query", "a webhook",
    "a user-facing string", "a lock",
)
RULE_PREDICATES = (
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
MILESTONE_PHRASES = (
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
ADR_SUBJECTS = (
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
KNOWLEDGE_TITLES = (
    "What the {area} outage taught us about the {noun}",
    "How the {area} {module} is laid out, and why",
    "Reading a {area} trace from the top",
    "The {noun} in {area} has three callers that matter",
    "Where {area} spends its time",
    "Why the {area} {module} has no {noun} of its own",
    "The order to read the {area} code in",
)
USE_CASE_TITLES = (
    "Plan the {area} work as data", "Find what a change to {area} will touch",
    "Hand {area} work between sessions", "Explain why a decision is in the {area} context",
    "Check the {area} layer before a release", "Give a session only what {area} needs",
    "Trace a {area} rule to the code it governs",
)
TAGS = (
    "architecture", "testing", "performance", "security", "reliability", "observability",
    "documentation", "data", "api", "governance", "coordination", "migration", "ux",
)
BODY_SENTENCES = (
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
ACCEPTANCE = (
    "The {module} {noun} refuses a malformed record and names the field",
    "A restart during a {noun} resumes where it stopped and writes nothing twice",
    "tests/{area}/test_{module}.py covers the new path and the old one",
    "The {noun} reports its duration and the number of records it skipped",
    "No caller outside {area} imports {module} internals",
    "The {noun} stays under {n} ms at the 95th percentile on the benchmark fixture",
    "Running the change twice leaves the same state as running it once",
    "The error message names the record, the field and the fix",
)
RISKS = (
    "The {noun} is shared with {other}; a change here may need a second merge there.",
    "The benchmark fixture may not be representative of production traffic.",
    "Callers that relied on the silent fallback will start to see errors.",
    "The migration touches every row of the {area} store; it must be resumable.",
)
SESSION_SUMMARIES = (
    "Worked on {issue} in {area}.{module}: the {noun} now {predicate}; tests pass locally.",
    "Investigated why the {area} {noun} {predicate_not}; the cause is recorded in {issue}.",
    "Split the {module} {noun} into two functions and added a regression test for {issue}.",
    "Reviewed the open work on {issue}; nothing was changed beyond the notes.",
    "Started {issue}, then stopped when the {noun} turned out to depend on {other}; "
    "handed over.",
)

DEP_COUNTS = (0, 1, 2, 3)
DEP_WEIGHTS = cumulative((30, 38, 22, 10))
PRIORITIES = ("p0", "p1", "p2", "p3")
PRIORITY_WEIGHTS = cumulative((10, 45, 35, 10))
ADR_STATUSES = ("accepted", "proposed", "deprecated", "rejected")
ADR_STATUS_WEIGHTS = cumulative((70, 20, 5, 5))
