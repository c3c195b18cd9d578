"""Numbers as the contract states them: tokens from bytes, 3-decimal rounding half away
from zero (never banker's rounding), and numbers in sentences: no trailing zeros, whole
numbers thousands-separated."""

from __future__ import annotations

import math
from decimal import Decimal

__all__ = ["BYTES_PER_TOKEN", "tokens_for", "round3", "fmt_number", "fmt_count", "fmt_tokens"]

#: The divisor of the token estimate.
BYTES_PER_TOKEN = 4


def tokens_for(n_bytes: int) -> int:
    """Estimated tokens: bytes ÷ 4 rounded up, never fewer than one."""
    return max(1, -(-int(n_bytes) // BYTES_PER_TOKEN))


def round3(value: float) -> float:
    """Round to 3 decimals, half away from zero, on the float's own value ×1000."""
    scaled = abs(value) * 1000.0
    whole = math.floor(scaled)
    if scaled - whole >= 0.5:
        whole += 1
    result = whole / 1000.0
    return -result if value < 0 else result


def fmt_number(value: float | int) -> str:
    """``1`` not ``1.0``; ``0.95``; never exponent form."""
    if isinstance(value, int):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = repr(float(value))
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return text


def fmt_count(n: int) -> str:
    """A whole number in a sentence: thousands separated (``23,931``), as every page, table
    and terminal view prints counts, so a detail sentence reads the same beside them."""
    return f"{n:,}"


def fmt_tokens(n: int) -> str:
    return "1 token" if n == 1 else f"{fmt_count(n)} tokens"
