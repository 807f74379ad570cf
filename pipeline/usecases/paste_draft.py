"""The paste area's draft: links pasted or typed and not yet added, kept in the archive.

A part of ``Workspace`` (``pipeline.usecases.workspace``). The window writes it a moment
after each change and when it closes, and shows it again when it opens the archive, so a
restart, a crash or a kill loses no paste; adding the links leaves in it only what was not
added (the rejected lines, to be fixed). Why a draft rather than adding each paste at once,
as 网文快捕 does: docs/gui.md.
"""

from __future__ import annotations

from pipeline.records.errors import KuaibuError
from pipeline.store.archive import write_atomic
from pipeline.usecases.base import WorkspaceBase

# The most a draft may hold: far beyond any paste (a bookmarks export of 100,000 links is a
# few MB) and little enough that a file put there by mistake is never read whole.
DRAFT_MAX_BYTES = 16 * 1024 * 1024


class DraftTooLarge(KuaibuError):
    """A draft over ``DRAFT_MAX_BYTES``: not read, not written (the file is left as it is)."""


class PasteDraft(WorkspaceBase):
    """Keep and give back the paste area's text."""

    def paste_draft(self) -> str:
        """The draft as last kept ("" when there is none)."""
        path = self.archive.paste_draft_path
        try:
            with open(path, "rb") as f:
                data = f.read(DRAFT_MAX_BYTES + 1)
        except FileNotFoundError:
            return ""
        if len(data) > DRAFT_MAX_BYTES:
            raise DraftTooLarge(f"{path} is larger than {DRAFT_MAX_BYTES // 1024 // 1024} MB:"
                                " not read as the paste area's draft")
        return data.decode("utf-8", errors="replace")

    def keep_paste_draft(self, text: str) -> None:
        """Keep ``text`` as the draft (written whole or not at all); an empty one removes
        it. A read-only archive keeps none (nothing can be added to it either)."""
        if self.read_only:
            return
        path = self.archive.paste_draft_path
        if not text.strip():
            path.unlink(missing_ok=True)
            return
        data = text.encode("utf-8", errors="replace")
        if len(data) > DRAFT_MAX_BYTES:
            raise DraftTooLarge(f"the paste area holds more than"
                                f" {DRAFT_MAX_BYTES // 1024 // 1024} MB: its draft is not kept")
        write_atomic(path, data)
