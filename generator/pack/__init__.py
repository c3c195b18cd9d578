"""The pack: the compiled context handed over — the selected entries' own text in spend
order, each headed by its identifier, tier and the best reason it was reached, under a
header saying what was asked, what it cost, what was left out and where the explain page
is. Pure: an answer and the source tree it was compiled from in, bytes out.

    pack_text(answer, files, "markdown") -> bytes

``files`` is the source tree (repo-relative path -> bytes; ``Workspace.tree.files``): the
index holds what the layer says, not the files' bytes, and the pack carries exactly the
bytes each entry's cost was measured on.
"""

from __future__ import annotations

from typing import Mapping

from ..engine.compile import GitInfo, compile_context
from ..engine.models import CompiledContext, CompileInput
from ..index import Index
from .assemble import assemble
from .models import (
    PACK_SCHEMA,
    Pack,
    PackBudget,
    PackEntry,
    PackFormat,
    PackInput,
    PackOutput,
    PackSize,
)
from .render import render

__all__ = ["pack_text", "build_pack", "pack", "Pack", "PackBudget", "PackEntry", "PackFormat",
           "PackInput", "PackOutput", "PackSize", "PACK_SCHEMA"]


def build_pack(answer: CompiledContext, files: Mapping[str, bytes],
               fmt: PackFormat | str = PackFormat.markdown) -> tuple[Pack, bytes]:
    """The pack of ``answer`` as a value (its size measured in ``fmt``) and as bytes."""
    return render(assemble(answer, files), PackFormat(fmt))


def pack_text(answer: CompiledContext, files: Mapping[str, bytes],
              fmt: PackFormat | str = PackFormat.markdown) -> bytes:
    """The pack of ``answer`` in ``fmt`` (markdown, xml or json), as bytes."""
    return build_pack(answer, files, fmt)[1]


def pack(index: Index, files: Mapping[str, bytes], data: PackInput, *,
         git: GitInfo | None = None) -> PackOutput:
    """``devcontext.pack``: compile ``data``'s request and hand the context over in its
    format. Raises what compiling raises (RequestError, NotFoundError)."""
    request = data.model_dump(exclude={"format"}, exclude_none=True)
    answer = compile_context(index, CompileInput(**request), git=git)
    sized, body = build_pack(answer, files, data.format)
    return PackOutput(format=data.format, size=sized.size, text=body.decode("utf-8"))
