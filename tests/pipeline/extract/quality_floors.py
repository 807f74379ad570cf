"""The dev sets' floors and the rule that reads a run against them, apart from the gate.

``test_quality_gate.py`` runs only where ``../shared/bench`` is; the comparison it applies is
plain code, tested everywhere by ``test_quality_floors.py``.
"""

from __future__ import annotations

Scores = dict[str, dict[str, float]]

# mf1: mean per-page F1 (floor); fail: pages with F1 < 0.5 (ceiling); title, date: exact-match
# share over the pages whose truth has one (floor), only on the sets that annotate them.
FLOORS: Scores = {
    "scrapinghub-dev": {"mf1": 0.980, "fail": 0},
    "zh-news-dev": {"mf1": 0.962, "fail": 1, "title": 0.97, "date": 0.93},
    "dragnet-dev": {"mf1": 0.907, "fail": 28},
    "cleaneval-dev": {"mf1": 0.875, "fail": 23},
    "cleanportaleval-dev": {"mf1": 0.952, "fail": 0},
    "l3s-gn1-dev": {"mf1": 0.960, "fail": 4, "title": 0.787},
    "readability-js-dev": {"mf1": 0.955, "fail": 1, "title": 0.77, "date": 0.93},
}
# score.py --json names of the measures above
FIELDS = {"mf1": "macro_f1", "fail": "failures", "title": "title_match", "date": "date_match"}
CEILINGS = {"fail"}  # measures where more is worse


def fmt(measure: str, value: float | None) -> str:
    if value is None:
        return "none"
    return f"{value:.0f}" if measure in CEILINGS else f"{value:.4f}"


def regressions(floors: Scores, scores: Scores) -> list[str]:
    """One line per set and measure that fell past its floor, old floor against now. A set
    with no score, or a measure it no longer reports, counts as fallen: a set that silently
    drops out of the run must not pass the gate."""
    found = []
    for dataset, floor in floors.items():
        now = scores.get(dataset)
        if now is None:
            found.append(f"{dataset}: not scored")
            continue
        for measure, bound in floor.items():
            value = now.get(measure)
            fell = value is None or (value > bound if measure in CEILINGS else value < bound)
            if fell:
                kind = "ceiling" if measure in CEILINGS else "floor"
                found.append(f"{dataset}: {measure} {kind} {fmt(measure, bound)}"
                             f" → now {fmt(measure, value)}")
    return found
