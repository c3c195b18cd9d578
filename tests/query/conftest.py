"""Layers the query tests run on: the bundled demo layer and a small many-script layer."""

from __future__ import annotations

import pytest
from layerkit import write_layer

from generator.index import build_index
from generator.layer.loader import load_repository
from generator.workspace import Workspace

#: Titles and summaries in many scripts, with ties, accents, ligatures, width variants,
#: emoji and markup that must not break an embedded <script>.
UNICODE_ISSUES: dict[str, tuple[str, str]] = {
    "I0001": ("Café au lait — ÉVALUATION gate", "The eval gate checks a naïve coöperation."),
    "I0002": ("缓存过期策略与评估", "缓存 entries expire; 评估 runs nightly"),
    "I0003": ("Straße und STRASSE", "Große Maßnahmen für die Straße"),
    "I0004": ("ΟΔΟΣ σοφίας", "Η οδός της σοφίας — Σίσυφος"),
    "I0005": ("İstanbul ıssız", "Türkçe İ and ı are different letters"),
    "I0006": ("🎉 emoji release party 🚀", "Ship it 🚢 with a party"),
    "I0007": ("한국어 검색 지원", "한글 텍스트를 검색합니다"),
    "I0008": ("हिन्दी खोज", "देवनागरी लिपि में खोज"),
    "I0009": ("ﬁle ligature ＦＵＬＬＷＩＤＴＨ", "ｅｖａｌ in full width; ① circled"),
    "I0010": ("日本語のテキスト検索 ハード ハート", "かな と カナ の 検索"),
    "I0011": ("Поиск по тексту", "Ёлка и ёж — поиск"),
    "I0012": ("بحث عربي", "البحث في النص العربي"),
    "I0013": ("x</script><!-- not markup", "a <b>tag</b> & an &amp; entity"),
    "I0014": ("eval gate", "eval gate"),
    "I0015": ("eval gate", "eval gate"),
    "I0016": ("Ångström Ωmega µ", "Å (U+212B) and Å (U+00C5) and Ω (U+2126)"),
    "I0017": ("Mixed CASE eVaL", "EVAL GATE Eval Gate"),
    "I0018": ("tabs\tand\nnewlines", "zero\u200bwidth and soft\u00adhyphen"),
}


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace(
        "\n", "\\n") + '"'


def unicode_files() -> dict[str, str]:
    files = {".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: Ünïcödé milestone\n"
             "slug: unicode\noutcome: \"Every script is searchable: 検索, поиск, بحث\"\n"}
    for ident, (title, summary) in UNICODE_ISSUES.items():
        files[f".ai/repo/project/issues/{ident}.yaml"] = (
            f"id: {ident}\nmilestone: m1\ntitle: {_quoted(title)}\n"
            f"objective: {_quoted(summary)}\n"
        )
    files[".ai/repo/project/milestones/検索-mañana.yaml"] = (
        "id: 検索-mañana\ntitle: Búsqueda mañana\nslug: busqueda\noutcome: \"検索 tomorrow\"\n")
    files[".ai/repo/project/issues/I0014.yaml"] += "depends_on: [I0013, I0404]\n"
    return files


@pytest.fixture(scope="session")
def demo_index():
    return Workspace.open(None).index


@pytest.fixture(scope="session")
def unicode_root(tmp_path_factory):
    return write_layer(tmp_path_factory.mktemp("unicode-layer"), unicode_files())


@pytest.fixture(scope="session")
def unicode_index(unicode_root):
    return build_index(load_repository(unicode_root)[1])
