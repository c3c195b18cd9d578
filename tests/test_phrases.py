"""A phrase says the same English as the f-string it replaces, and a page says it in its
language: translated template, the language's numbers, nested phrases spoken too."""

from __future__ import annotations

import gettext

import pytest

from generator.phrases import Phrase, placeholders, say, say_n
from generator.site import i18n


class _Czech(gettext.NullTranslations):
    """A two-entry catalogue with Czech plural rules (1 / 2–4 / 5+)."""

    WORDS = {"`{path}` under {n} names": None,
             "reached at {relevance}, by {why}": "dosaženo při {relevance}, skrze {why}",
             "a seed": "semínko"}

    def gettext(self, message):
        return self.WORDS.get(message) or message

    def ngettext(self, singular, plural, n):
        forms = ["`{path}` pod {n} jménem", "`{path}` pod {n} jmény", "`{path}` pod {n} jmény"]
        return forms[0 if n == 1 else 1 if 2 <= n <= 4 else 2]


def test_the_english_text_is_the_template_filled_in():
    assert str(say("`{path}` costs {tokens} tokens at {relevance}", path="a/b.py",
                   tokens=24000, relevance=0.25)) == "`a/b.py` costs 24,000 tokens at 0.25"
    assert str(say_n("{n} path", "{n} paths", n=1)) == "1 path"
    assert str(say_n("{n} path", "{n} paths", n=3)) == "3 paths"
    assert str(say("why: {inner}", inner=say("a {x}", x="seed"))) == "why: a seed"


def test_a_missing_parameter_fails_where_the_phrase_is_made():
    with pytest.raises(KeyError, match="tokens"):
        say("{path} costs {tokens}", path="x")
    with pytest.raises(TypeError):
        str(say("{flag}", flag=True))


def test_a_page_speaks_it_in_its_language(monkeypatch):
    monkeypatch.setattr(i18n, "catalogue", lambda code: _Czech())
    phrase = say("reached at {relevance}, by {why}", relevance=0.25, why=say("a seed"))
    with i18n.using("cs"):
        assert i18n.speak(phrase) == "dosaženo při 0,25, skrze semínko"
        assert [i18n.speak(say_n("`{path}` under {n} names", "`{path}` under {n} names", n=k,
                                 path="p")) for k in (1, 3, 5, 12000)] == \
            ["`p` pod 1 jménem", "`p` pod 3 jmény", "`p` pod 5 jmény", "`p` pod 12\xa0000 jmény"]
    assert i18n.speak(phrase) == str(phrase) == "reached at 0.25, by a seed"


def test_phrases_compare_by_value_and_name_their_placeholders():
    assert say("{a} and {b}", a="x", b=2) == say("{a} and {b}", a="x", b=2)
    assert placeholders("`{path}` under {n} names") == {"path", "n"}
    assert isinstance(say("x"), Phrase)


def test_the_english_text_is_made_once_and_not_pickled():
    import pickle

    phrase = say("{a} of {n}", a="x", n=1200)
    assert str(phrase) is str(phrase)
    back = pickle.loads(pickle.dumps(phrase))
    assert back == phrase and back._english is None and str(back) == "x of 1,200"
    assert i18n.speak(phrase) == "x of 1,200"  # an English page says the wire's text


# -- the English text, written out for speed, is the generic rendering's -----------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from generator.phrases import _english_param, reworded  # noqa: E402


def _reference_english(phrase: Phrase) -> str:
    """The English text by the generic route every language takes (render)."""
    def choose(p: Phrase) -> str:
        return p.plural if p.plural is not None and p.count() != 1 else p.template
    return phrase.render(choose, lambda v: _reference_english(v) if isinstance(v, Phrase)
                         else _english_param(v))


_values = st.text(max_size=6) | st.integers(-10**7, 10**7) | st.floats(
    allow_nan=False, allow_infinity=False, width=32)
_inner = st.builds(lambda v: say("inner {v}", v=v), _values)


@given(a=_values | _inner, n=st.integers(0, 3_000), same=st.booleans())
def test_the_english_text_is_the_generic_rendering(a, n, same):
    plain = say("x {a} y", a=a)
    counted = (say_n("{n} thing: {a}", "{n} thing: {a}", n=n, a=a) if same
               else say_n("{n} thing: {a}", "{n} things: {a}", n=n, a=a))
    for phrase in (plain, counted):
        assert str(Phrase(phrase.template, phrase.params, phrase.plural)) == \
            _reference_english(phrase)


def test_a_sentence_reworded_is_the_one_said_anew():
    model = say_n("{used} of {limit}: {n} tokens", "{used} of {limit}: {n} tokens",
                  n=0, used=0, limit=0)
    again = reworded(model, 24_167, 23_999, 24_000)
    assert again == say_n("{used} of {limit}: {n} tokens", "{used} of {limit}: {n} tokens",
                          n=24_167, used=23_999, limit=24_000)
    assert str(again) == "23,999 of 24,000: 24,167 tokens"
    with pytest.raises(ValueError):
        reworded(model, 1, 2)  # one value short: refused, not said with a hole


# -- a sentence recounted is the one reworded, and says the same English ----------------

from generator.phrases import Recounted  # noqa: E402

_counts = st.integers(-10**9, 10**9)


@given(values=st.lists(_counts, min_size=3, max_size=3), n=st.sampled_from([0, 1, 2, 5, 1000]),
       same=st.booleans())
def test_a_sentence_recounted_is_the_one_reworded_and_says_its_english(values, n, same):
    plural = "{used} of {limit}: {n} token, {{braces}} kept" if same else \
        "{used} of {limit}: {n} tokens, {{braces}} kept"
    model = say_n("{used} of {limit}: {n} token, {{braces}} kept", plural, n=0, used=0,
                  limit=0, low=0)
    counts = (n, *values)
    fast = Recounted(model)(*counts)
    slow = reworded(model, *counts)
    assert fast == slow and repr(fast) == repr(slow)
    assert str(fast) == str(Phrase(slow.template, slow.params, slow.plural))
    assert str(fast) == _reference_english(slow)


def test_a_sentence_recounted_takes_its_counts_in_full():
    model = say("{a} of {b}", a=0, b=0)
    assert str(Recounted(model)(1_200, 24_000)) == "1,200 of 24,000"
    with pytest.raises(ValueError, match="takes 2 counts, given 1"):
        Recounted(model)(1)


def test_a_phrase_hashes_as_its_fields_do_once_and_after_a_round_trip():
    """The hash is remembered, and is the value the dataclass would give: what compares
    equal hashes equal, whether made here, unpickled, or nested."""
    import pickle

    inner = say("{n} hops", n=3)
    phrase = say("reached along {how}", how=inner)
    assert hash(phrase) == hash((phrase.template, phrase.params, phrase.plural))
    again = pickle.loads(pickle.dumps(phrase))
    assert again == phrase and hash(again) == hash(phrase)
    assert hash(say("reached along {how}", how=say("{n} hops", n=3))) == hash(phrase)
    assert hash(say("reached along {how}", how=say("{n} hops", n=4))) != hash(phrase)
