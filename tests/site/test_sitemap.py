"""sitemap.xml holds absolute URLs only: from --base-url, else from the project file's
``site_url``; with neither there is no sitemap, and the build summary, the dashboard and the
diagnostics page say so, word for word."""

from __future__ import annotations

import subprocess
import sys

from layerkit import write_layer
from sitekit import build

from generator.site.build import SiteInputs, build_site
from generator.engine.compile import GitInfo
from generator.workspace import Workspace
from generator.writer import write_site

PROJECT = "schema_version: 1\nname: harbour\nrepository: example/harbour\n"
NO_URL = ("No sitemap.xml: a sitemap needs absolute URLs and the site's URL is not known; build "
          "with --base-url URL, or declare `site_url: URL` in .ai/repo/project/project.yaml.")


def _layer(tmp_path, project: str = PROJECT):
    return write_layer(tmp_path / "repo", {".ai/repo/project/project.yaml": project})


def _build(repo, out, base_url=None):
    ws = Workspace.open(repo, exclude=[out])
    write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), files=ws.tree.files,
                                     label="test layer", base_url=base_url)), out)
    return out


def test_without_a_url_there_is_no_sitemap_and_both_pages_say_so(tmp_path):
    site = build(_layer(tmp_path), tmp_path / "site")
    assert not (site / "sitemap.xml").exists()
    html = NO_URL.replace("'", "&#39;").replace("`site_url: URL`", "<code>site_url: URL</code>")
    for page in ("index.html", "diagnostics.html"):
        assert f'<p class="note sitemap-note">{html}</p>' in (site / page).read_text(), page


def test_the_project_files_site_url_makes_every_loc_absolute(tmp_path):
    repo = _layer(tmp_path, PROJECT + "site_url: https://example.org/harbour/\n")
    site = build(repo, tmp_path / "site")
    text = (site / "sitemap.xml").read_text()
    locs = [line.split("<loc>")[1].split("</loc>")[0] for line in text.splitlines() if "<loc>" in line]
    assert locs and all(loc.startswith("https://example.org/harbour/") for loc in locs)
    assert "https://example.org/harbour/index.html" in locs and not any("404" in loc for loc in locs)
    assert "sitemap-note" not in (site / "index.html").read_text()


def test_base_url_wins_over_the_project_file(tmp_path):
    repo = _layer(tmp_path, PROJECT + "site_url: https://example.org/harbour/\n")
    site = _build(repo, tmp_path / "site", base_url="https://docs.example.com")
    assert "<loc>https://docs.example.com/index.html</loc>" in (site / "sitemap.xml").read_text()


def test_a_site_url_that_is_not_absolute_is_named_with_the_fix(tmp_path):
    site = build(_layer(tmp_path, PROJECT + "site_url: harbour/docs\n"), tmp_path / "site")
    assert not (site / "sitemap.xml").exists()
    assert ("No sitemap.xml: <code>site_url</code> in .ai/repo/project/project.yaml is "
            "<code>harbour/docs</code>, not an absolute http(s) URL; write the URL the site is "
            "published at (https://…), or build with --base-url URL.") in (site / "index.html").read_text()


def test_the_build_summary_says_there_is_no_sitemap(tmp_path):
    repo = _layer(tmp_path)
    run = lambda *extra: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "generator", "build", "--repo", str(repo), "-q", *extra],
        capture_output=True, text=True, cwd=tmp_path)
    proc = run("--out", str(tmp_path / "a"))
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith("built ") and ("0 errors, 3 warnings; no sitemap.xml (give "
                                          "--base-url URL, or site_url in the project file); ") in line
    proc = run("--out", str(tmp_path / "b"), "--base-url", "https://docs.example.com/")
    assert proc.returncode == 0, proc.stderr
    assert "sitemap" not in proc.stdout and (tmp_path / "b" / "sitemap.xml").is_file()
