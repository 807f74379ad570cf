"""Progress is a typed record: each counter a field, each Count naming one, so a face that
misspells a counter fails instead of showing 0."""

from __future__ import annotations

from dataclasses import fields

import pytest

from pipeline.records.events import Count, Progress


def test_every_count_is_a_field_and_a_tally_becomes_the_record() -> None:
    assert {c.value for c in Count} <= {f.name for f in fields(Progress)}
    p = Progress.of(5, 2.0, {Count.FINISHED: 4, Count.FAILED: 1, Count.FETCHED: 3,
                             Count.CLEANED: 3, Count.LOCALIZED: 2})
    assert (p.finished, p.failed, p.fetched, p.cleaned, p.localized) == (4, 1, 3, 3, 2)
    assert (p.changed, p.unchanged, p.unchecked, p.is_check) == (0, 0, 0, False)
    assert Progress.of(2, 1.0, {Count.FINISHED: 1, Count.UNCHECKED: 1}).is_check
    with pytest.raises(AttributeError):
        p.clean  # type: ignore[attr-defined]  # noqa: B018
