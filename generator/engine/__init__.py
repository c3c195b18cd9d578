"""The devcontext engine: compile a request into a token-budgeted context and explain one
identifier's standing in it. Pure: values in, values out."""

from .cache import EngineCache
from .compile import GitInfo, compile_context
from .explain import explain, explain_in
from .models import (
    Budget,
    CompiledContext,
    CompileInput,
    ContextEntry,
    Deduplicated,
    Discovery,
    EntryProvenance,
    Excluded,
    ExclusionReason,
    ExplainInput,
    Explanation,
    Selector,
    Standing,
    Tier,
    TierSpend,
)
from .numbers import BYTES_PER_TOKEN, tokens_for
from .policy import DEFAULT_BUDGET_TOKENS, DEFAULT_FLOOR, DEFAULT_MAX_DEPTH
from .request import parse_input

__all__ = [
    "BYTES_PER_TOKEN",
    "Budget",
    "CompileInput",
    "CompiledContext",
    "ContextEntry",
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_FLOOR",
    "DEFAULT_MAX_DEPTH",
    "Deduplicated",
    "Discovery",
    "EngineCache",
    "EntryProvenance",
    "Excluded",
    "ExclusionReason",
    "ExplainInput",
    "Explanation",
    "GitInfo",
    "Selector",
    "Standing",
    "Tier",
    "TierSpend",
    "compile_context",
    "explain",
    "explain_in",
    "parse_input",
    "tokens_for",
]
