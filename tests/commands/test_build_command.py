"""`devcontext build`: the first few errors and warnings with file and line, then the summary
line; `--strict` turns either into exit 1 once the site is written.

(Named ``test_build_command.py``: ``tests/site/test_build.py`` holds the name
``test_build.py`` and test file names are unique, see ``tests/test_layout.py``.)"""

from __future__ import annotations

from generator.cli import main
from layerkit import issue, write_layer

CLEAN = {".ai/repo/policy.yaml": "version: 1\n",
         ".ai/repo/adrs/0001-a.md": "---\nid: adr-0001\ntitle: A\n---\n",
         ".ai/repo/rules/project/a.v1.md": "---\nid: project.a\nversion: 1\n---\n",
         ".ai/repo/project/issues/I0001.yaml": issue("I0001", milestone="'-'")}

YAML_ERROR = ("error: [yaml_syntax] the file is not valid YAML (in any dialect) at line 2, column 1: "
              "did not find expected node content (while parsing a flow node). Fix the syntax; "
              "the file was not loaded.")


def id_warning(n: int) -> str:
    return (f"warning: [id_mismatch] issue `I01{n:02}` lives in a file whose name disagrees with "
            f"its id; expected `I01{n:02}.yaml`. Rename the file or correct the id (the id is used).")


def build(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(["build", "-q", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out.splitlines()


def many_problems(root):
    """7 errors (bad YAML) and 7 warnings (ids that disagree with their file names)."""
    files = dict(CLEAN)
    for n in range(1, 8):
        files[f".ai/repo/project/issues/I00{10 + n}.yaml"] = issue(f"I01{n:02}", milestone="'-'")
        files[f".ai/repo/project/issues/I00{20 + n}.yaml"] = "id: [\n"
    return write_layer(root, files)


def test_summary_shows_the_first_five_errors_and_warnings_then_how_many_more(tmp_path, capsys):
    layer = many_problems(tmp_path / "repo")
    code, lines = build(capsys, "--repo", str(layer), "--out", str(tmp_path / "site"))
    assert code == 0
    assert lines[-1].startswith(f"built {tmp_path / 'site'}: ")
    assert lines[-1].endswith("s") and "; 7 errors, 7 warnings; " in lines[-1]
    issues = ".ai/repo/project/issues"
    assert lines[:-1] == (
        [f"{issues}/I00{20 + n}.yaml:2:1: {YAML_ERROR}" for n in range(1, 6)]
        + ["… and 2 more errors: devcontext check lists them all"]
        + [f"{issues}/I00{10 + n}.yaml:1: {id_warning(n)}" for n in range(1, 6)]
        + ["… and 2 more warnings: devcontext check lists them all"])
    assert (tmp_path / "site" / "index.html").is_file()


def test_a_few_problems_are_all_shown_without_a_more_line(tmp_path, capsys):
    files = dict(CLEAN)
    files[".ai/repo/project/issues/I0011.yaml"] = issue("I0101", milestone="'-'")
    code, lines = build(capsys, "--repo", str(write_layer(tmp_path / "repo", files)),
                        "--out", str(tmp_path / "site"))
    assert code == 0 and "; 0 errors, 1 warning; " in lines[-1]
    assert lines[:-1] == [f".ai/repo/project/issues/I0011.yaml:1: {id_warning(1)}"]


def test_strict_fails_on_errors_after_writing_the_site(tmp_path, capsys):
    layer = many_problems(tmp_path / "repo")
    out = tmp_path / "site"
    code, lines = build(capsys, "--repo", str(layer), "--out", str(out), "--strict")
    assert code == 1
    assert lines[-1] == (f"FAILED: 7 errors, 7 warnings (--strict: errors and warnings fail; "
                         f"the site is written to {out})")
    assert "… and 2 more errors: devcontext check lists them all" in lines
    assert lines[-2].startswith(f"built {out}: ")
    assert (out / "index.html").is_file() and (out / "api/v1/index.json").is_file()


def test_strict_fails_on_the_demo_whose_warnings_are_on_purpose(tmp_path, capsys):
    out = tmp_path / "site"
    code, lines = build(capsys, "--out", str(out), "--strict")
    assert code == 1
    assert [line.split(": warning: ")[0] for line in lines[:4]] == [
        ".ai/repo/adrs/0004-a-stale-reading-is-shown-labelled-when-the-network-fails.md:14",
        ".ai/repo/project/issues/I0303.yaml:18",
        ".ai/repo/rules/README.md:13",
        ".ai/repo/rules/project/fetch-retries.v1.md:2",
    ]
    assert lines[4].startswith(f"built {out}: ") and "; 0 errors, 4 warnings; " in lines[4]
    assert lines[5:] == [f"FAILED: 0 errors, 4 warnings (--strict: errors and warnings fail; "
                         f"the site is written to {out})"]
    assert (out / "index.html").is_file()
    code, lines = build(capsys, "--out", str(out))
    assert code == 0 and len(lines) == 5


def test_strict_passes_on_a_clean_layer(tmp_path, capsys):
    layer = write_layer(tmp_path / "repo", CLEAN)
    code, lines = build(capsys, "--repo", str(layer), "--out", str(tmp_path / "site"), "--strict")
    assert code == 0
    assert len(lines) == 1 and "; 0 errors, 0 warnings; " in lines[0]


def test_a_templates_option_without_templates_is_refused_before_building(tmp_path, capsys):
    out = tmp_path / "site"
    for given, found in ((tmp_path / "nowhere", "no such directory"),
                         (tmp_path, "no context.html in it")):
        assert main(["build", "-q", "--out", str(out), "--templates", str(given)]) == 2
        err = capsys.readouterr().err
        assert err == (f"devcontext build: --templates {given}: expected a directory holding the "
                       f"site's Jinja templates (context.html, base.html, ...), found {found}. Give "
                       "such a directory, or leave the option out to use the bundled ones.\n")
    assert not out.exists()


def test_timings_name_every_stage_in_order_after_the_summary(tmp_path, capsys):
    layer = write_layer(tmp_path / "repo", CLEAN)
    code, lines = build(capsys, "--repo", str(layer), "--out", str(tmp_path / "site"),
                        "--timings", "--lang", "en,cs")
    assert code == 0 and lines[-2].startswith("built ")
    assert lines[-1].startswith("stages: ")
    stages = [part.split(" (CPU ")[0].rsplit(" ", 2)[0] for part in lines[-1][8:].split(" · ")]
    assert stages == ["loading the layer",
                      "compiling contexts (en)", "writing object pages (en)",
                      "writing overview pages (en)",
                      "compiling contexts (cs)", "writing object pages (cs)",
                      "writing overview pages (cs)", "putting the site in place"]


def test_no_timings_without_the_option(tmp_path, capsys):
    layer = write_layer(tmp_path / "repo", CLEAN)
    _, lines = build(capsys, "--repo", str(layer), "--out", str(tmp_path / "site"))
    assert not any(line.startswith("stages: ") for line in lines)
