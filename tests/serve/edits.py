"""Edits a person makes to a layer while ``devcontext serve`` runs, for the incremental
tests: each edit changes files of a copy of the demo layer (or its templates) and says
which paths it touched, as a watcher would report them."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from generator.demo import demo_root
from generator.engine.compile import GitInfo
from generator.site.build import SiteInputs, build_site
from generator.site.templating import TEMPLATES_DIR
from generator.workspace import Workspace
from generator.writer import write_site

ISSUES = ".ai/repo/project/issues"
MILESTONES = ".ai/repo/project/milestones"
ADRS = ".ai/repo/adrs"
RULES = ".ai/repo/rules/project"
SESSIONS = ".ai/repo/sessions"
LABEL = "test layer"


@dataclass
class Sandbox:
    """A copy of the demo layer and of the templates, and what was broken on purpose."""

    root: Path
    repo: Path
    templates: Path
    broken: dict[str, str] = field(default_factory=dict)
    counter: int = 0

    @classmethod
    def make(cls, base: Path) -> "Sandbox":
        repo = base / "repo"
        templates = base / "templates"
        shutil.copytree(demo_root(), repo)
        shutil.copytree(TEMPLATES_DIR, templates)
        return cls(base, repo, templates)

    def next(self) -> int:
        self.counter += 1
        return self.counter

    def rel(self, path: Path) -> str:
        return path.relative_to(self.repo).as_posix()

    def files(self, directory: str, pattern: str = "*") -> list[Path]:
        return sorted(p for p in (self.repo / directory).glob(pattern) if p.is_file())


def reference_build(box: Sandbox, out: Path) -> Path:
    """A fresh full build (``build_site`` + ``write_site``) of the sandbox."""
    if out.exists():
        shutil.rmtree(out)
    ws = Workspace.open(box.repo, exclude=[out])
    write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), label=LABEL,
                                     templates=box.templates, files=ws.tree.files)), out)
    return out


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".gitkeep"}


def differences(a: Path, b: Path) -> list[str]:
    x, y = tree_bytes(a), tree_bytes(b)
    return sorted(k for k in x.keys() | y.keys() if x.get(k) != y.get(k))


# -- reading and writing records ---------------------------------------------------------

def _split(path: Path) -> tuple[dict | None, str]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        if not text.startswith("---\n") or "\n---\n" not in text[4:]:
            return None, text
        head, body = text[4:].split("\n---\n", 1)
        data = yaml.load(head, Loader=yaml.BaseLoader)
        return (data if isinstance(data, dict) else None), body
    data = yaml.load(text, Loader=yaml.BaseLoader)
    return (data if isinstance(data, dict) else None), ""


def _join(path: Path, data: dict, body: str) -> None:
    head = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
    path.write_text(f"---\n{head}---\n{body}" if path.suffix == ".md" else head, encoding="utf-8")


def update_record(path: Path, change) -> bool:
    """Apply ``change(data)`` to a YAML record or a Markdown file's front matter."""
    try:
        data, body = _split(path)
    except yaml.YAMLError:
        return False
    if data is None:
        return False
    change(data)
    _join(path, data, body)
    return True


def _as_list(value) -> list:
    if value is None or value == "":
        return []
    return list(value) if isinstance(value, list) else [value]


# -- the edits: each returns (repo paths touched, template names touched) -------------------

Touched = tuple[list[str], list[str]]


def edit_title(box: Sandbox, n: int) -> Touched:
    files = box.files(ISSUES, "*.yaml") + box.files(ADRS, "0*.md") + box.files(RULES, "*.md")
    path = files[n % len(files)]
    k = box.next()
    update_record(path, lambda d: d.__setitem__("title", f"{d.get('title', 'untitled')} ({k})"))
    return [box.rel(path)], []


def _issue_ids(box: Sandbox) -> list[str]:
    ids = []
    for path in box.files(ISSUES, "*.yaml"):
        try:
            data, _ = _split(path)
        except yaml.YAMLError:
            continue
        if data and isinstance(data.get("id"), str):
            ids.append(data["id"])
    return ids or ["I0101"]


def edit_add_dependency(box: Sandbox, n: int) -> Touched:
    files = box.files(ISSUES, "*.yaml")
    path = files[n % len(files)]
    ids = _issue_ids(box) + ["I0999"]  # one that resolves to nothing
    target = ids[(n // 7) % len(ids)]
    update_record(path, lambda d: d.__setitem__("depends_on", _as_list(d.get("depends_on")) + [target]))
    return [box.rel(path)], []


def edit_remove_dependencies(box: Sandbox, n: int) -> Touched:
    files = box.files(ISSUES, "*.yaml")
    path = files[n % len(files)]
    update_record(path, lambda d: d.pop("depends_on", None))
    return [box.rel(path)], []


RELATED = ["file:lib/cache.py", "rule:project.units-are-si", "adr:adr-0002",
           "claim:history-exports-as-csv", "file:lib/missing.py", "rule:project.fetch-retries"]


def edit_related(box: Sandbox, n: int) -> Touched:
    files = box.files(ADRS, "0*.md")
    path = files[n % len(files)]

    def change(d: dict) -> None:
        related = _as_list(d.get("related"))
        if related and n % 3 == 0:
            related.pop((n // 3) % len(related))
        else:
            related.append(RELATED[(n // 5) % len(RELATED)])
        d["related"] = related

    update_record(path, change)
    return [box.rel(path)], []


def edit_supersedes(box: Sandbox, n: int) -> Touched:
    files = box.files(ADRS, "0*.md")
    path = files[n % len(files)]
    target = f"adr-{(n // 11) % 7:04d}"

    def change(d: dict) -> None:
        if d.get("supersedes") and n % 2:
            d.pop("supersedes")
        else:
            d["supersedes"] = _as_list(d.get("supersedes")) + [target]

    update_record(path, change)
    return [box.rel(path)], []


def edit_break_yaml(box: Sandbox, n: int) -> Touched:
    files = [p for p in box.files(ISSUES, "*.yaml") + box.files(ADRS, "0*.md")
             + box.files(RULES, "*.md") if box.rel(p) not in box.broken]
    if not files:
        return [], []
    path = files[n % len(files)]
    text = path.read_text(encoding="utf-8")
    box.broken[box.rel(path)] = text
    if path.suffix == ".md" and text.startswith("---\n"):
        broken = text.replace("\n---\n", "\nbroken: [unclosed\n---\n", 1)
    else:
        broken = text + "broken: [unclosed\n  - : :\n"
    path.write_text(broken, encoding="utf-8")
    return [box.rel(path)], []


def edit_fix_yaml(box: Sandbox, n: int) -> Touched:
    if not box.broken:
        return edit_title(box, n)
    rel = sorted(box.broken)[n % len(box.broken)]
    text = box.broken.pop(rel)
    path = box.repo / rel
    if path.parent.is_dir():
        path.write_text(text, encoding="utf-8")
    return [rel], []


def edit_policy(box: Sandbox, n: int) -> Touched:
    if n % 2:
        path = box.repo / ".ai/repo/policy.yaml"
        text = path.read_text(encoding="utf-8") if path.exists() else "version: 1\n"
        path.write_text(text.replace("recent_decisions: ", f"recent_decisions: {n % 9}") if
                        "recent_decisions: " in text else text + f"note: edit {box.next()}\n",
                        encoding="utf-8")
    else:
        path = box.repo / ".ai/repo/scope.yaml"
        text = path.read_text(encoding="utf-8") if path.exists() else "version: 1\nin: []\n"
        path.write_text(text.replace("in:\n", f"in:\n  - extra/{box.next()}/**\n", 1),
                        encoding="utf-8")
    return [box.rel(path)], []


def edit_blocking_rule(box: Sandbox, n: int) -> Touched:
    files = box.files(RULES, "*.md")
    path = files[n % len(files)]
    update_record(path, lambda d: d.__setitem__(
        "class", "advisory" if d.get("class") == "blocking" else "blocking"))
    return [box.rel(path)], []


def edit_scope(box: Sandbox, n: int) -> Touched:
    files = box.files(ISSUES, "*.yaml") + box.files(MILESTONES, "*.yaml")
    path = files[n % len(files)]
    choices = ["lib/cache.py", "lib/fetch.py", "lib", "tests", "lib/new0.py", "docs"]

    def change(d: dict) -> None:
        scope = _as_list(d.get("scope"))
        pick = choices[(n // 3) % len(choices)]
        if pick in scope:
            scope.remove(pick)
        else:
            scope.append(pick)
        d["scope"] = scope

    update_record(path, change)
    return [box.rel(path)], []


def edit_session(box: Sandbox, n: int) -> Touched:
    files = box.files(SESSIONS, "*.md")
    k = box.next()
    if not files or n % 3 == 0:
        path = box.repo / SESSIONS / f"20260310T0000{k:02d}Z--s-{k}--main--{k:07d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nschema: session/v1\nkind: session\nbranch: {'main' if n % 2 else 'topic'}\n"
                        f"changed_files:\n  - lib/{['cache', 'fetch', 'new0'][n % 3]}.py\n"
                        f"session_id: s-{k}\ntitle: \"Session {k}\"\n---\n\nNotes {k}.\n",
                        encoding="utf-8")
        return [box.rel(path)], []
    path = files[n % len(files)]
    update_record(path, lambda d: d.__setitem__(
        "changed_files", _as_list(d.get("changed_files"))[1:] + [f"lib/new{n % 2}.py"]))
    return [box.rel(path)], []


def edit_contract(box: Sandbox, n: int) -> Touched:
    files = [p for p in box.repo.joinpath(".ai").rglob("README.md")]
    files.sort()
    path = files[n % len(files)]

    def change(d: dict) -> None:
        if n % 2:
            d["scope"] = "directory" if d.get("scope") == "subtree" else "subtree"
        else:
            d["tracks"] = _as_list(d.get("tracks")) + [["lib/cache.py", "lib", "tests/test_cli.py"][n % 3]]

    if not update_record(path, change):
        path.write_text(path.read_text(encoding="utf-8") + f"\nEdited {box.next()}.\n", encoding="utf-8")
    return [box.rel(path)], []


def edit_add_issue(box: Sandbox, n: int) -> Touched:
    k = box.next()
    ids = _issue_ids(box)
    milestone = ["offline-reads", "first-release", "export-history", "no-such-milestone"][n % 4]
    path = box.repo / ISSUES / f"I09{k:02d}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"id: I09{k:02d}\nmilestone: {milestone}\ntitle: New issue {k}\n"
                    f"objective: Do thing {k}.\nscope:\n  - lib/cache.py\n"
                    f"depends_on:\n  - {ids[n % len(ids)]}\n", encoding="utf-8")
    return [box.rel(path)], []


def edit_add_source(box: Sandbox, n: int) -> Touched:
    k = box.next()
    path = box.repo / (f"lib/new{n % 3}.py" if n % 2 else f"tests/test_new{k}.py")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# source {k}\nVALUE = {k}\n" * (1 + n % 4), encoding="utf-8")
    return [box.rel(path)], []


def edit_add_adr(box: Sandbox, n: int) -> Touched:
    k = box.next()
    path = box.repo / ADRS / f"00{20 + k:02d}-decision-{k}.md"
    target = f"adr-{n % 7:04d}"
    path.write_text(f"---\nschema: adr/v1\nid: adr-00{20 + k:02d}\nkind: adr\ntitle: Decision {k}\n"
                    f"status: {'accepted' if n % 2 else 'superseded'}\nsupersedes: [{target}]\n"
                    f"related: [file:lib/cache.py]\n---\n\n# Decision {k}\n\nSee "
                    f"[the cache](../../../lib/cache.py) and [new](../../../lib/new{n % 3}.py).\n",
                    encoding="utf-8")
    return [box.rel(path)], []


def edit_same_size(box: Sandbox, n: int) -> Touched:
    """A code file edited in place to the same size (one letter's case flipped): its bytes
    change, its object and every answer may not — the packs that carry it must."""
    files = box.files("lib", "*.py") + box.files("tests", "*.py")
    path = files[n % len(files)]
    data = bytearray(path.read_bytes())
    letters = [i for i, b in enumerate(data) if chr(b).isalpha()]
    if letters:
        i = letters[(n // 3) % len(letters)]
        data[i] ^= 0x20
        path.write_bytes(bytes(data))
    return [box.rel(path)], []


def edit_link(box: Sandbox, n: int) -> Touched:
    files = box.files(ADRS, "0*.md") + box.files(RULES, "*.md")
    path = files[n % len(files)]
    target = ["../../../lib/new0.py", "../../../lib/cache.py", "../../../tests/test_new1.py"][n % 3]
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"\nSee [this file]({target}).\n")
    return [box.rel(path)], []


def edit_delete(box: Sandbox, n: int) -> Touched:
    files = (box.files(ISSUES, "*.yaml") + box.files(ADRS, "0*.md") + box.files(RULES, "*.md")
             + box.files("lib", "*.py") + box.files("tests", "*.py") + box.files(SESSIONS, "*.md")
             + box.files(MILESTONES, "*.yaml") + box.files(".ai/repo/knowledge", "README.md"))
    path = files[n % len(files)]
    path.unlink()
    box.broken.pop(box.rel(path), None)
    return [box.rel(path)], []


def edit_rename(box: Sandbox, n: int) -> Touched:
    files = (box.files(ISSUES, "*.yaml") + box.files(ADRS, "0*.md") + box.files(RULES, "*.md")
             + box.files("lib", "*.py"))
    path = files[n % len(files)]
    k = box.next()
    new = path.with_name(f"r{k}-{path.name}") if n % 2 else path.with_name(f"renamed{k}{path.suffix}")
    path.rename(new)
    old_rel = box.rel(path)
    if old_rel in box.broken:
        box.broken[box.rel(new)] = box.broken.pop(old_rel)
    return [old_rel, box.rel(new)], []


def edit_template(box: Sandbox, n: int) -> Touched:
    names = ["context.html", "object.html", "base.html", "dashboard.html", "static/style.css",
             "macros.html", "rows.html"]
    name = names[n % len(names)]
    path = box.templates / name
    text = path.read_text(encoding="utf-8")
    k = box.next()
    if name.endswith(".css"):
        text += f"/* edit {k} */\n"
    elif name == "rows.html":  # every row of the list pages, kept between rebuilds
        text = text.replace("<tr>", f'<tr data-edit="{k}">')
    elif "{% block main %}" in text:
        text = text.replace("{% block main %}", f"{{% block main %}}<!-- edit {k} -->", 1)
    elif "</footer>" in text:
        text = text.replace("</footer>", f"<!-- edit {k} --></footer>", 1)
    else:
        text += f"{{# edit {k} #}}\n"
    path.write_text(text, encoding="utf-8")
    return [], [name]


EDITS = {
    "title": edit_title,
    "add_dependency": edit_add_dependency,
    "remove_dependencies": edit_remove_dependencies,
    "related": edit_related,
    "supersedes": edit_supersedes,
    "break_yaml": edit_break_yaml,
    "fix_yaml": edit_fix_yaml,
    "policy": edit_policy,
    "blocking_rule": edit_blocking_rule,
    "scope": edit_scope,
    "session": edit_session,
    "contract": edit_contract,
    "add_issue": edit_add_issue,
    "add_source": edit_add_source,
    "add_adr": edit_add_adr,
    "link": edit_link,
    "same_size": edit_same_size,
    "delete": edit_delete,
    "rename": edit_rename,
    "template": edit_template,
}
