"""Named failures. Each message is what a person reads in the task's error column."""

from __future__ import annotations


class KuaibuError(Exception):
    """Base of every error the pipeline reports to a person."""


class FetchError(KuaibuError):
    """A page could not be fetched. ``retryable`` says whether a later run should try again."""

    def __init__(self, reason: str, *, retryable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable


class ExtractError(KuaibuError):
    """No article could be cut out of a page (empty page, list page, too short)."""


class AssetError(KuaibuError):
    """One image could not be brought home; never fails its article."""


class RulesError(KuaibuError):
    """rules.yaml is invalid: names the file, line and key, and what was expected."""

    def __init__(self, path: str, line: int | None, key: str | None, message: str) -> None:
        where = path if line is None else f"{path}, line {line}"
        what = f"{key}: {message}" if key else message
        super().__init__(f"{where}: {what}")
        self.path, self.line, self.key, self.message = path, line, key, message


class TaskFileError(KuaibuError):
    """tasks.csv cannot be read as it stands (a malformed row names its line)."""


class StopRequested(KuaibuError):
    """The run was asked to stop while this task waited or worked; the task is not failed."""

    def __init__(self) -> None:
        super().__init__("stopped")


class CookieFileError(KuaibuError):
    """cookies.txt cannot be read; the message names the file and line."""


class BookError(KuaibuError):
    """A book cannot be built as asked (nothing to bind, no CJK font, a broken template)."""
