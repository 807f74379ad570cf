from dataclasses import fields
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.records.settings import MB, SPECS, TUNABLE, Settings, Spec


def test_defaults_are_the_seeds() -> None:
    s = Settings()
    assert (s.connect_timeout, s.read_timeout, s.max_page_bytes) == (8.0, 20.0, 5 * 1024 * 1024)
    assert (s.retries, s.retry_waits, s.per_host_connections, s.global_connections) == (
        2, (2.0, 6.0), 2, 8)
    assert (s.host_delay_ms, s.image_max_edge, s.jpeg_quality) == (300, 1600, 82)


def test_text_overrides_take_the_default_type() -> None:
    s = Settings().with_text_overrides(["read_timeout=30", "retry-waits=1, 3", "retries=0",
                                        "cookies_file=/tmp/cookies.txt", "book_order=title"])
    assert (s.read_timeout, s.retry_waits, s.retries) == (30.0, (1.0, 3.0), 0)
    assert (s.cookies_file, s.book_order) == ("/tmp/cookies.txt", "title")


@pytest.mark.parametrize("pair, message", [
    ("colour=red", "NAME one of: connect_timeout"),
    ("retries", "NAME=VALUE"),
    ("retries=two", "'two' is not a whole number"),
    ("global_connections=0", "setting global_connections must be above 0, not 0$"),
    ("jpeg_quality=101", "setting jpeg_quality must be 100 or less, not 101$"),
    ("jpeg_quality=0", "setting jpeg_quality must be 1 or more, not 0$"),
    ("image_max_edge=15", "setting image_max_edge must be 16 or more, not 15$"),
    ("epub_budget_bytes=0", "setting epub_budget_bytes must be above 0, not 0$"),
    ("read_timeout=0", "setting read_timeout must be above 0, not 0.0$"),
    ("retry_waits=2,-1", r"setting retry_waits must be 0 or more each, not \(2.0, -1.0\)$"),
    ("book_order=size", "setting book_order must be list or published or title, not 'size'$"),
    ("book_language=xx-invalid-!!",
     r"setting book_language must be a valid BCP 47 tag \(zh-CN, en, ja\), not 'xx-invalid-!!'$"),
])
def test_bad_values_are_named(pair: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings().with_text_overrides([pair])


def test_a_well_formed_language_tag_is_taken() -> None:
    assert Settings().with_text_overrides(["book_language=zh-Hant-TW"]).book_language \
        == "zh-Hant-TW"
    assert Settings().with_text_overrides(["book_language="]).book_language is None


def test_every_field_declares_its_spec() -> None:
    assert list(SPECS) == [f.name for f in fields(Settings)]
    bounded = [name for name, spec in SPECS.items() if spec.low is not None]
    assert len(bounded) >= 15  # every number has at least a floor


def _just_outside(spec: Spec, default: object) -> list[object]:
    """Values one step past each declared bound, in the type of the default."""
    step = 1 if isinstance(default, int) else 0.5
    outside: list[object] = []
    if spec.low is not None:
        outside.append(spec.low if spec.above else spec.low - step)
    if spec.high is not None:
        outside.append(spec.high + step)
    if spec.choices:
        outside.append("none of " + ",".join(spec.choices))
    return [(x,) if isinstance(default, tuple) else x for x in outside]


@pytest.mark.parametrize("name", list(SPECS))
def test_every_declared_range_is_enforced(name: str) -> None:
    spec, default = SPECS[name], getattr(Settings(), name)
    for value in _just_outside(spec, default):
        with pytest.raises(ValueError, match=f"^setting {name} must be .*, not "):
            Settings().with_overrides(**{name: value})
    for edge in (spec.low, spec.high):  # the bounds themselves are allowed (unless "above")
        if edge is not None and not (edge == spec.low and spec.above):
            value = (float(edge),) if isinstance(default, tuple) else type(default)(edge)
            assert getattr(Settings().with_overrides(**{name: value}), name) == value


def test_the_dialogs_fields_and_ranges_are_declared_with_the_settings() -> None:
    assert list(TUNABLE) == ["connect_timeout", "read_timeout", "retries", "page_deadline",
                             "image_deadline", "per_host_connections", "global_connections",
                             "host_delay_ms", "image_max_edge", "jpeg_quality",
                             "max_image_bytes", "epub_budget_bytes"]
    assert (SPECS["image_max_edge"].low, SPECS["jpeg_quality"].low) == (16, 1)
    assert SPECS["jpeg_quality"].high == 100
    assert (SPECS["epub_budget_bytes"].scale, SPECS["epub_budget_bytes"].high) == (MB, 2000 * MB)
    assert all(spec.label and spec.high is not None for spec in TUNABLE.values())
    assert not SPECS["user_agent"].tunable  # a person tunes it with --set, not the dialog


def test_a_label_without_both_bounds_is_refused() -> None:
    with pytest.raises(ValueError, match="needs both a low and a high bound"):
        Spec(low=0, label="Retries")


def test_a_malformed_book_language_is_one_line_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--archive", str(tmp_path), "--set", "book_language=xx-invalid-!!"]) \
        == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be a valid BCP 47 tag" in err
