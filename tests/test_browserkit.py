"""The page watcher the browser tests rely on: a missing file is an error, a fetch that the
next navigation cancels is not (CI once failed on a favicon aborted by the next ``goto``)."""

from __future__ import annotations

from browserkit import PageWatch


def test_a_missing_file_is_reported_and_a_cancelled_fetch_is_not(browser, tmp_path):
    (tmp_path / "broken.html").write_text('<img src="missing.png"><p>x</p>')
    (tmp_path / "late.html").write_text(
        "<script>addEventListener('load', () => { const i = new Image();"
        " i.src = 'late.png'; document.body.append(i); });</script><p>y</p>")
    watch = PageWatch(browser)
    held = []  # late.png is never answered, so the next goto cancels its fetch
    watch.page.route("**/late.png", lambda route: held.append(route))
    try:
        watch.open((tmp_path / "broken.html").as_uri())
        assert any("missing.png" in e and "ERR_FILE_NOT_FOUND" in e for e in watch.errors), \
            watch.errors
        watch.errors.clear()
        watch.open((tmp_path / "late.html").as_uri())
        watch.page.wait_for_function("document.images.length == 1")
        assert held, "late.png was not requested"
        watch.page.goto("about:blank")
        assert [e for e in watch.errors if "late.png" in e] == []
    finally:
        watch.close()
