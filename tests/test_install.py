"""A real install: the wheel built from this repository, installed into a fresh virtual
environment, builds the demo site from any directory — the same files, byte for byte, as a
build from the checkout. Offline: the fresh environment reuses the dependencies already
installed beside the test runner (through PYTHONPATH), never the checkout or its editable
install, and the test proves where ``generator`` was imported from."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from generator.cli import main
from generator.demo import demo_root
from generator.site.templating import TEMPLATES_DIR

ROOT = Path(__file__).resolve().parents[1]

#: What a wheel is built from (a copy, so the build leaves nothing in the checkout).
SOURCES = ("pyproject.toml", "README.md", "generator", "templates")

_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")


def _files(top: Path) -> dict[str, bytes]:
    """Every file under ``top`` by forward-slash relative path (caches left out)."""
    return {p.relative_to(top).as_posix(): p.read_bytes() for p in sorted(top.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DEVCONTEXT_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONNOUSERSITE="1", PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, str]:
    """The wheel, and everything pip printed while building it."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=_IGNORE)
        else:
            shutil.copy2(ROOT / name, src / name)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(tmp / "dist"), str(src)],
        capture_output=True, text=True, env=_env(), timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (built,) = (tmp / "dist").glob("devcontext_site-*.whl")
    return built, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def fresh_venv(wheel, tmp_path_factory) -> Path:
    """A new virtual environment holding only the wheel."""
    venv = tmp_path_factory.mktemp("venv") / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   env=_env(), timeout=120)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--no-deps", "--no-index", "--no-compile", str(wheel[0])],
        capture_output=True, text=True, env=_env(), timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return venv


def _dependency_path() -> str:
    """Where the test runner's dependencies live (jinja2, pydantic, ...). A PYTHONPATH entry
    reads no .pth file, so the editable install recorded there stays out of reach."""
    paths = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    return os.pathsep.join(p for p in paths if os.path.realpath(p) != str(ROOT))


def test_wheel_carries_the_templates_static_assets_and_every_demo_file(wheel):
    names = set(zipfile.ZipFile(wheel[0]).namelist())
    templates = {f"generator/_templates/{rel}" for rel in _files(ROOT / "templates")}
    demo = {f"generator/demo/layer/{rel}" for rel in _files(ROOT / "generator/demo/layer")}
    assert "generator/_templates/context.html" in templates
    assert "generator/_templates/static/style.css" in templates
    assert "generator/demo/layer/.ai/manifest.yaml" in demo
    assert "generator/demo/layer/.gitignore" in demo
    assert sorted(templates - names) == [] and sorted(demo - names) == []
    assert not any(n.startswith(("templates/", "tests/", "benchmarks/", "site/")) for n in names)


def test_building_the_wheel_prints_no_warning(wheel):
    assert [line for line in wheel[1].splitlines() if "warning" in line.lower()] == []


def test_installed_package_builds_the_demo_site_from_another_directory(fresh_venv, tmp_path,
                                                                        capsys):
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = _env(PYTHONPATH=_dependency_path())
    where = subprocess.run(
        [str(fresh_venv / "bin" / "python"), "-c",
         "import generator, generator.demo, generator.site.templating as r;"
         "print(generator.__file__); print(r.TEMPLATES_DIR); print(generator.demo.demo_root())"],
        cwd=workdir, capture_output=True, text=True, env=env, timeout=60)
    assert where.returncode == 0, where.stderr
    module, templates, demo = (Path(line) for line in where.stdout.splitlines())
    for path in (module, templates, demo):
        assert path.is_relative_to(fresh_venv.resolve()) and not path.is_relative_to(ROOT)
    assert templates.name == "_templates" and (templates / "context.html").is_file()

    proc = subprocess.run([str(fresh_venv / "bin" / "devcontext"), "build", "--out", "site", "-q"],
                          cwd=workdir, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("built site: ")
    assert "Traceback" not in proc.stderr

    assert main(["build", "--out", str(tmp_path / "checkout-site"), "-q"]) == 0
    capsys.readouterr()
    installed, checkout = _files(workdir / "site"), _files(tmp_path / "checkout-site")
    assert sorted(installed) == sorted(checkout)
    assert "static/style.css" in installed and "contexts/issue/I0201.html" in installed
    assert [name for name in checkout if installed[name] != checkout[name]] == []


def test_checkout_reads_its_own_templates_and_demo():
    """From a checkout (the editable install ``make`` uses) the package's templates are the
    top-level ``templates/`` itself, so an edit there is what ``serve`` renders and watches."""
    if not Path(__import__("generator").__file__).resolve().is_relative_to(ROOT):
        pytest.skip("generator is not imported from this checkout")
    assert TEMPLATES_DIR == (ROOT / "templates").resolve()
    assert demo_root() == (ROOT / "generator" / "demo" / "layer").resolve()


def test_wheel_carries_the_czech_catalogue(wheel):
    names = set(zipfile.ZipFile(wheel[0]).namelist())
    assert "generator/locale/cs/LC_MESSAGES/messages.po" in names


def test_installed_package_builds_the_czech_site(fresh_venv, tmp_path, capsys):
    """The catalogue ships as package data and compiles where it is installed: the same
    Czech site as from the checkout."""
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = _env(PYTHONPATH=_dependency_path())
    proc = subprocess.run([str(fresh_venv / "bin" / "devcontext"), "build", "--lang", "cs",
                           "--out", "site", "-q"],
                          cwd=workdir, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page = (workdir / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="cs">' in page and "Každá odpověď zde říká proč." in page

    assert main(["build", "--lang", "cs", "--out", str(tmp_path / "checkout-site"), "-q"]) == 0
    capsys.readouterr()
    installed, checkout = _files(workdir / "site"), _files(tmp_path / "checkout-site")
    assert sorted(installed) == sorted(checkout)
    assert [name for name in checkout if installed[name] != checkout[name]] == []
