"""The product's errors, in one small hierarchy.

::

    DevContextError                 base: anything the product raises on purpose
    ├── InputError                  a record or an argument is wrong (path, field, line)
    │   └── RequestError            a compile/explain/query request is invalid
    ├── NotFoundError               a request names something the index does not hold
    ├── LayerError                  the layer cannot be loaded at all (no manifest, ...)
    └── BuildError                  the site could not be built or written

Third-party errors (YAML, pydantic, OS) are translated into these at the boundary where
they occur; nothing outside this module raises a bare ``Exception``. Problems that do not
stop the work are not errors but :class:`generator.diagnostics.Diagnostic` values.
"""

from __future__ import annotations

__all__ = [
    "DevContextError",
    "InputError",
    "RequestError",
    "NotFoundError",
    "LayerError",
    "BuildError",
]


class DevContextError(Exception):
    """Base of every error the product raises on purpose."""

    #: A short machine word for the error, used by the HTTP surface.
    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InputError(DevContextError):
    """A record or an argument is wrong; carries where, when known."""

    code = "invalid_input"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.field = field
        self.line = line


class RequestError(InputError):
    """A compile, explain or query request is invalid (``field`` names the parameter)."""

    code = "invalid_request"


class NotFoundError(DevContextError):
    """The request names an issue, milestone or object the index does not hold."""

    code = "not_found"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class LayerError(DevContextError):
    """The layer cannot be loaded at all: no manifest, or the root is not a directory."""

    code = "layer_error"


class BuildError(DevContextError):
    """The site could not be built or written."""

    code = "build_error"
