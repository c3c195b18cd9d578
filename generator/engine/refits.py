"""The least budget that brings a refused entry back: what an exclusion for budget says
would change the answer. Raising the budget can let earlier, larger entries in first, so
the answer is found by re-running the spend; :class:`_Refits` does it for every refused
entry of one spend at once (:func:`_budget_to_include` is the reference definition)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

def _budget_to_include(costs: list[int], required: list[bool], i: int, reserved: int,
                       spent: int) -> tuple[int, bool]:
    """A budget under which entry ``i`` is kept by first fit, and whether it was verified.

    ``spent`` is what was spent (or reserved) when the entry was refused. Raising the budget
    can let earlier, larger entries in first, so the obvious answer (``spent`` plus its cost)
    is checked by re-running the spend over the entries before it; a few rounds settle it,
    else the answer is the budget that surely admits it (everything before it, then it;
    ``False`` says it may not be the least). (The reference definition; :class:`_Refits`
    answers the same, fast.)
    """
    cost = costs[i]

    def used_before(budget: int) -> int:
        used = reserved
        for j in range(i):
            c = costs[j]
            if not required[j] and used + c <= budget:
                used += c
        return used

    budget = spent + cost
    for _ in range(REFIT_ROUNDS):
        before = used_before(budget)
        if before + cost <= budget:
            return budget, True
        budget = before + cost
    return reserved + sum(c for c, r in zip(costs[:i], required[:i]) if not r) + cost, False


#: Rounds of "re-run the spend under the raised budget" before settling for a lower bound.
REFIT_ROUNDS = 6
#: Refused entries per answer whose least admitting budget is searched for; the rest get a
#: budget that surely admits them (a deterministic allowance, so large answers stay cheap).
MAX_REFIT_SEARCHES = 64
_INF = float("inf")


class _MinTree:
    """Range minimum over a fixed list, answering "the first index in [lo, hi) whose value
    is at most ``bound``" in O(log n)."""

    def __init__(self, values: list[float]) -> None:
        size = 1
        while size < max(1, len(values)):
            size *= 2
        tree = [_INF] * (2 * size)
        tree[size:size + len(values)] = values
        for k in range(size - 1, 0, -1):
            a, b = tree[2 * k], tree[2 * k + 1]
            tree[k] = a if a <= b else b
        self.size = size
        self.tree = tree

    def first_at_most(self, lo: int, hi: int, bound: float) -> int:
        tree, size = self.tree, self.size
        if lo >= hi:
            return -1
        node = lo + size
        # climb to the next subtree on the right until one holds a value within bound
        while tree[node] > bound:
            while node & 1:
                node >>= 1
            if node == 0:
                return -1
            node += 1
        while node < size:
            node = 2 * node if tree[2 * node] <= bound else 2 * node + 1
        found = node - size
        return found if found < hi else -1


class _Refits:
    """:func:`_budget_to_include` for every refused entry of one spend, without re-running
    the spend from the start each time (which made compiling large layers quadratic).

    First fit under a budget ``B`` above the limit makes the same choices as the spend
    under the limit up to the first entry the limit refused that ``B`` admits (the first
    ``j`` with ``used_at[j] + cost[j] <= B`` among refused ones, found in the prefix
    minimum); from there it is simulated, jumping to the next entry that fits the room
    left (a range-minimum tree). Entries of cost 0 never change what is used and are
    skipped. The answers are those of the reference definition, exactly."""

    def __init__(self, costs: list[int], required: list[bool], reserved: int, limit: int) -> None:
        self.costs = costs
        self.reserved = reserved
        n = len(costs)
        used_at = [0] * (n + 1)
        used = reserved
        refused_key: list[float] = [_INF] * n
        for j in range(n):
            used_at[j] = used
            c = costs[j]
            if not required[j]:
                if used + c <= limit:
                    used += c
                else:
                    refused_key[j] = used + c
        used_at[n] = used
        self.used_at = used_at
        # prefix minimum of the refused entries' keys, negated for bisect (non-decreasing)
        neg_prefix: list[float] = []
        best = _INF
        for key in refused_key:
            if key < best:
                best = key
            neg_prefix.append(-best)
        self.neg_prefix = neg_prefix
        self.searched = 0
        self.fits = _MinTree([c if (not required[j] and c > 0) else _INF
                              for j, c in enumerate(costs)])
        # sums of the droppable costs before each entry (with the reserve, what everything
        # before it costs): a run of entries that all fit is taken in one step (bisect),
        # the next one that fits after a refusal by the tree
        sums = [0] * (n + 1)
        total = 0
        for j in range(n):
            sums[j] = total
            if not required[j]:
                total += costs[j]
        sums[n] = total
        self.sums = sums

    def used_before(self, i: int, budget: int) -> int:
        """What first fit under ``budget`` has used before entry ``i``."""

        p = bisect_left(self.neg_prefix, -budget, 0, i)
        if p >= i:
            return self.used_at[i]  # the same choices as under the limit
        used = self.used_at[p] + self.costs[p]
        pos = p + 1
        fits, costs, sums = self.fits, self.costs, self.sums
        while pos < i:
            # every entry from pos up to (not including) q fits, taken together
            q = bisect_right(sums, sums[pos] + budget - used, pos, i + 1) - 1
            if q > pos:
                used += sums[q] - sums[pos]
                pos = q
                if pos >= i:
                    break
            # the entry at pos does not fit: jump to the next one that does
            j = fits.first_at_most(pos + 1, i, budget - used)
            if j < 0:
                break
            used += costs[j]
            pos = j + 1
        return used

    @property
    def unsearched(self) -> int:
        """How many answers came after the per-answer allowance of searches (each named
        the budget that surely brings its entry in; the answer says so once)."""
        return max(0, self.searched - MAX_REFIT_SEARCHES)

    def budget_to_include(self, i: int, spent: int) -> tuple[int, bool]:
        cost = self.costs[i]
        budget = spent + cost
        self.searched += 1
        if self.searched > MAX_REFIT_SEARCHES:
            # Past the per-answer allowance, answer with the budget that surely admits it:
            # everything before it fits, then it does. True, if not always the least.
            return self.reserved + self.sums[i] + cost, False
        for _ in range(REFIT_ROUNDS):
            before = self.used_before(i, budget)
            if before + cost <= budget:
                return budget, True
            budget = before + cost
        return self.reserved + self.sums[i] + cost, False
