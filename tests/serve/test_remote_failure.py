"""A template error raised in a forked worker names the template and line, not pool.py."""

from __future__ import annotations

from multiprocessing.pool import RemoteTraceback

from generator.serve.session import describe_failure


def test_a_worker_template_error_names_the_template_line(tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "context.html").write_text("x")
    text = ('Traceback (most recent call last):\n'
            '  File "/usr/lib/python3/multiprocessing/pool.py", line 125, in worker\n'
            f'  File "{templates / "context.html"}", line 7, in top-level template code\n'
            '  File "/venv/jinja2/runtime.py", line 852, in _fail_with_undefined_error\n'
            "jinja2.exceptions.UndefinedError: 'nope' is undefined\n")
    try:
        try:
            raise RemoteTraceback(text)
        except RemoteTraceback as remote:
            raise KeyError("'nope' is undefined") from remote
    except KeyError as exc:
        got = describe_failure(exc, tmp_path / "repo", templates)
    assert got["file"] == "templates/context.html" and got["line"] == 7
