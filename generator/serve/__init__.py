"""``devcontext serve``: build the site, serve it, rebuild incrementally on every edit.

Modules: :mod:`.incremental` (what an edit recomputes), :mod:`.output` (the output
directory kept equal to a full build), :mod:`.watcher` (watchdog, debounced),
:mod:`.livereload` (server-sent events and the injected snippet), :mod:`.api` (the live
compile/explain API), :mod:`.server` (HTTP).
"""
