"""The gate's comparison of a run with the floors: every set that fell, old floor against now."""

from __future__ import annotations

from tests.pipeline.extract.quality_floors import Scores, regressions


def test_regressions_names_every_set_that_fell_with_floor_and_now() -> None:
    floors: Scores = {
        "a": {"mf1": 0.9, "fail": 2},
        "b": {"mf1": 0.8, "fail": 3, "title": 0.5},
        "c": {"mf1": 0.7, "fail": 0, "title": 0.9},
        "d": {"mf1": 0.5, "fail": 0},
    }
    scores: Scores = {
        "a": {"mf1": 0.9, "fail": 2},  # exactly at the floors: holds
        "b": {"mf1": 0.79, "fail": 4, "title": 0.5},
        "c": {"mf1": 0.75, "fail": 0},  # no title any more
    }
    assert regressions(floors, scores) == [
        "b: mf1 floor 0.8000 → now 0.7900",
        "b: fail ceiling 3 → now 4",
        "c: title floor 0.9000 → now none",
        "d: not scored",
    ]
    assert regressions(floors, floors) == []
