"""The run report: after a batch, what went wrong and where to look, at a glance.

``build_report`` is a pure function over the task list and two readers (the article and the
asset map of a task), so it is tested without an archive and gives the same answer for the
same inputs (the read-through sample is seeded). ``write_report`` renders it to
``04_logs/report.html``: one self-contained page (inline CSS, no scripts, no remote
resources), headings in English and Chinese, so it opens anywhere the archive is copied; its
advice names commands and settings (the command line's words). Beside it ``report.json`` keeps
the report as a record: the advice and the reasons an article is suspect are codes
(``FailureGroup.advice``, ``Doubt``), so the window says them in its own language and names its
own menus and buttons instead of commands.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

from lxml import html as lxml_html

from pipeline.records.article import Article
from pipeline.records.errors import ErrorKind
from pipeline.records.failures import Code
from pipeline.records.task import HAS_ARTICLE, STATUSES, Status, Task
from pipeline.store.archive import Archive, utc_now, write_atomic
from pipeline.store.asset_map import AssetMap
from pipeline.text.templating import environment
from pipeline.web.urls import host_of, site_domain

REPORT_HTML = "report.html"
REPORT_JSON = "report.json"


@dataclass(frozen=True)
class ReportOptions:
    """Every threshold the report judges by, in one place (tune here, not in the code)."""

    short_chars: int = 200  # an article shorter than this is probably a teaser or a stub
    low_confidence: float = 0.5  # the extractor's own doubt (relaxed or baseline passes)
    link_share: float = 0.5  # a text mostly link words is a list or a menu, not an article
    many_network: int = 3  # this many network failures on one host: it is being throttled
    sample_size: int = 5  # articles to read through, as the seed advises after a sample run
    ids_shown: int = 50  # ids listed per group (the count says how many there are)


OPTIONS = ReportOptions()

# A group's advice is a code: the cause its failures share where the kind alone would advise
# wrong (a site that limits requests, a page that is gone, a site that refuses connections, a
# host that does not resolve), else the failure kind's value. ADVICE is what the file and the
# command line say for each: what a person does about it, command or setting named (the
# window says its own words for the codes).
THROTTLED = "throttled"  # HTTP 403 or 429 (or, on one host, many dropped connections)
GONE = "gone"  # HTTP 404 or 410
REFUSED = "refused"  # connection refused, host unreachable
UNRESOLVED = "unresolved"  # the host name does not resolve
HOTLINK = "hotlink"  # an image host answers 403: it refuses pictures shown on other sites
IMAGE_TOO_LARGE = "image-too-large"  # an image over max_image_bytes
THROTTLE_ADVICE = ("the site limits requests: lower per_host_connections / raise host_delay_ms"
                   " (run --set per_host_connections=1 --set host_delay_ms=3000)")
CAUSE_ADVICE: dict[str, str] = {
    THROTTLED: THROTTLE_ADVICE,
    GONE: "the page is gone: try the Wayback Machine's copy (its link beside the task's),"
          " then edit the task's link to it",
    REFUSED: "the site refuses the connection: it is down, or the link is wrong (host or port);"
             " open it in a browser",
    UNRESOLVED: "the host does not resolve: the site is gone or its name is misspelt;"
                " check the link",
    HOTLINK: "the image host refuses hotlinking: check the Referer rule (rules.yaml referer"
             " for the page's site)",
    IMAGE_TOO_LARGE: "the image is over the size limit: raise max_image_bytes and fetch it"
                     " again (run --retry-failed --set max_image_bytes=…)",
}
KIND_ADVICE: dict[ErrorKind, str] = {
    ErrorKind.NETWORK: "check the connection and the site; then run --retry-failed --kind network",
    ErrorKind.HTTP_4XX: "the server refuses the link: check it in a browser (404/410: gone)",
    ErrorKind.HTTP_5XX: "the server broke: try again later (run --retry-failed --kind http-5xx)",
    ErrorKind.REDIRECT: "the link redirects in a loop or off the web: open it in a browser",
    ErrorKind.BAD_URL: "not a link Kuaibu fetches: fix it (edit) or remove the task",
    ErrorKind.BLOCKED_ADDRESS: "a private or local address: --set allow_addresses=… then"
                               " run --kind blocked-address",
    ErrorKind.NOT_HTML: "not a web page (PDF, image): rules.yaml content_selector for this site"
                        " if it is a page, else remove the task",
    ErrorKind.TOO_LARGE: "over the size limit: raise max_page_bytes, or rules.yaml"
                         " content_selector for this site",
    ErrorKind.INTERSTITIAL: "an anti-bot or login page: export cookies from a browser"
                            " (run --cookies FILE)",
    ErrorKind.TRUNCATED: "the page arrived cut short: run --retry-failed --kind truncated",
    ErrorKind.NO_ARTICLE: "no article found: rules.yaml content_selector for this site"
                          " (rules test --domain D --content CSS)",
    ErrorKind.NEEDS_JS: "a shell that scripts fill in: render: browser for this site (the"
                        " Failures tab's Render with browser, or rules set --domain D"
                        " render=browser), then run --retry-failed --kind needs-javascript",
    ErrorKind.RULES: "rules.yaml says something that cannot work: rules check",
    ErrorKind.INTERNAL: "a bug: the traceback is in 04_logs/errors.log",
    ErrorKind.UNKNOWN: "a failure without a kind (an older list): run --retry-failed",
}
ADVICE: dict[str, str] = {**CAUSE_ADVICE,
                          **{kind.value: words for kind, words in KIND_ADVICE.items()}}
WAYBACK = "https://web.archive.org/web/"  # + a link: the Wayback Machine's latest copy


class Doubt(StrEnum):
    """Why an article is likely wrong (its values are the record's words)."""

    SHORT = "short"  # values: the character count
    LOW_CONFIDENCE = "low-confidence"  # the confidence (0.00) and the extractor's pass
    SITE_NAME = "site-name"  # the title
    LINKS = "links"  # the share of link text (73%)


# what the file says for each doubt, its values filled in order
DOUBT_WORDS: dict[Doubt, str] = {
    Doubt.SHORT: "very short: {0} characters · 正文过短",
    Doubt.LOW_CONFIDENCE: "low confidence {0} ({1}) · 置信度低",
    Doubt.SITE_NAME: "title is the site's name: '{0}' · 标题是网站名",
    Doubt.LINKS: "mostly links: {0} of the text · 多为链接",
}


@dataclass(frozen=True)
class Reason:
    """One reason an article is suspect: the doubt and the values its sentence names."""

    doubt: Doubt
    values: tuple[str, ...]

    @property
    def text(self) -> str:
        return DOUBT_WORDS[self.doubt].format(*self.values)
# The statuses a site limits requests by, and those of a page that is gone; an old row
# without a code is read by its text.
_STATUS_CAUSE = {"403": THROTTLED, "429": THROTTLED, "404": GONE, "410": GONE}
_STATUS_IN_TEXT = re.compile(r"\b(403|429|404|410)\b")
_CODE_CAUSE = {Code.CONNECTION_REFUSED: REFUSED, Code.HOST_UNREACHABLE: REFUSED,
               Code.HOST_NOT_FOUND: UNRESOLVED}


def cause(task: Task) -> str:
    """A failed task's advice code: what its failure says where that matters for what to do
    (``_STATUS_CAUSE``, ``_CODE_CAUSE``), else its kind's value."""
    kind = task.failure_kind or ErrorKind.UNKNOWN
    found = task.failure
    if found is None:
        said = _STATUS_IN_TEXT.search(task.error) if kind == ErrorKind.HTTP_4XX else None
        return _STATUS_CAUSE[said.group(1)] if said else _kind_code(kind)
    if found.code in (Code.HTTP_STATUS, Code.HTTP_STATUS_UNNAMED) and found.args:
        return _STATUS_CAUSE.get(str(found.args[0]), _kind_code(kind))
    return _CODE_CAUSE.get(found.code, _kind_code(kind))


def image_cause(code: str | None, error: str) -> str:
    """Why an image is missing, as the report groups it: the host does not resolve, refuses
    the connection, refuses hotlinking (403), the image is gone (404/410) or too large; else
    "other" (its sentence is in the task's log)."""
    if code in (Code.HTTP_STATUS.value, Code.HTTP_STATUS_UNNAMED.value):
        said = _STATUS_IN_TEXT.search(error)
        status = said.group(1) if said else ""
        return HOTLINK if status == "403" else GONE if status in ("404", "410") else "other"
    if code == Code.TOO_LARGE.value:
        return IMAGE_TOO_LARGE
    return _CODE_CAUSE.get(Code(code), "other") if code in _CODES else "other"


_CODES = {c.value for c in Code}


def _kind_code(kind: ErrorKind) -> str:
    return kind.value if kind in KIND_ADVICE else ErrorKind.UNKNOWN.value


@dataclass(frozen=True)
class FailureGroup:
    """Failed tasks sharing a kind or a domain, with what to do about them."""

    key: str  # the kind's word or the host
    count: int
    ids: list[int]
    advice: str  # a code: a cause (THROTTLED, GONE…) or a kind's value (see ADVICE)
    kinds: dict[str, int] = field(default_factory=dict)  # a domain group: its kinds
    links: list[str] = field(default_factory=list)  # each task's link, as ``ids`` orders them

    @property
    def advice_text(self) -> str:
        """The advice in the file's words (commands and settings named)."""
        return ADVICE.get(self.advice, ADVICE[ErrorKind.UNKNOWN.value])


@dataclass(frozen=True)
class ImageStats:
    """Images brought home of those the articles show (one image host's, or all), with why
    the others are missing (an image cause code → count) and the advice for the commonest."""

    key: str
    images_ok: int
    images_total: int
    reasons: dict[str, int] = field(default_factory=dict)
    advice: str = ""  # a code of ADVICE, "" when the reasons call for none

    @property
    def share(self) -> float | None:
        return self.images_ok / self.images_total if self.images_total else None


@dataclass(frozen=True)
class Suspect:
    """An article likely to be wrong, with why, where its clean page is and its source."""

    task_id: int
    title: str
    reasons: list[Reason]
    clean_href: str  # relative to 04_logs, where the report is
    url: str


@dataclass(frozen=True)
class Sample:
    """An article picked at random to read through."""

    task_id: int
    title: str
    clean_href: str
    url: str


@dataclass(frozen=True)
class Report:
    totals: dict[str, int]  # status word → count, every status, in pipeline order
    by_kind: list[FailureGroup]
    by_domain: list[FailureGroup]
    images: ImageStats
    images_by_domain: list[ImageStats]
    suspects: list[Suspect]
    samples: list[Sample]

    @property
    def tasks(self) -> int:
        return sum(self.totals.values())

    @property
    def failed(self) -> int:
        return self.totals.get(Status.FAILED.value, 0)

    def summary(self) -> list[str]:
        """Three lines for a terminal: the totals, the failures, the articles to check."""
        done = ", ".join(f"{s} {n}" for s, n in self.totals.items() if n)
        kinds = ", ".join(f"{g.key} {g.count}" for g in self.by_kind[:3])
        shown = f"{self.images.images_ok}/{self.images.images_total}"
        return [f"{self.tasks} tasks: {done or 'none'}",
                f"failed {self.failed}" + (f" ({kinds}; most on {self.by_domain[0].key})"
                                           if self.by_domain else ""),
                f"images {shown}, {len(self.suspects)} articles to check,"
                f" {len(self.samples)} to read through"]


def clean_href(task_id: int) -> str:
    """The clean page of a task as the report (in 04_logs) links it."""
    return f"../01_clean/{task_id}.html"


def link_share(content_html: str) -> float:
    """How much of an article's text is link text (0–1): near 1 for a menu or a list page."""
    if not content_html.strip():
        return 0.0
    try:
        root = lxml_html.fragment_fromstring(content_html, create_parent="div")
    except (ValueError, lxml_html.etree.ParserError):
        return 0.0
    total = len("".join(root.text_content().split()))
    linked = sum(len("".join(a.text_content().split())) for a in root.iter("a"))
    return linked / total if total else 0.0


def _domain_advice(tasks: Sequence[Task], options: ReportOptions) -> str:
    """One host's advice code: throttling when it says so (403/429) or drops many requests
    (plain network failures, not a refused connection or a name that does not resolve), else
    its commonest cause (a host failing one way is usually fixed one way)."""
    causes = Counter(map(cause, tasks))
    if THROTTLED in causes or causes[ErrorKind.NETWORK.value] >= options.many_network:
        return THROTTLED
    return causes.most_common(1)[0][0]


def _group(key: str, tasks: Sequence[Task], advice: str,
           kinds: dict[str, int] | None = None) -> FailureGroup:
    return FailureGroup(key, len(tasks), [t.id for t in tasks], advice, kinds or {},
                        [t.url for t in tasks])


def _name_key(text: str) -> str:
    """What two spellings of a name share: letters and digits, case folded ("河畔 周刊" and
    "河畔周刊", "Example.com" and "example com")."""
    return re.sub(r"[\W_]+", "", text.casefold())


def _same_name(title: str, host: str, names: set[str]) -> bool:
    """A title that is the site's name (``names``: keys of the names it goes by) or its domain
    ("example.com", "Example", "www.x.cn")."""
    key = _name_key(title)
    bare = site_domain(host.casefold())
    return bool(key) and key in names | {_name_key(bare), _name_key(bare.split(".")[0])}


def _suspect_reasons(task: Task, article: Article, site_names: set[str],
                     options: ReportOptions) -> list[Reason]:
    reasons = []
    if article.chars < options.short_chars:
        reasons.append(Reason(Doubt.SHORT, (str(article.chars),)))
    confidence = task.confidence if task.confidence is not None else article.confidence
    if confidence < options.low_confidence:
        reasons.append(Reason(Doubt.LOW_CONFIDENCE, (f"{confidence:.2f}", str(article.method))))
    title = task.extracted_title or article.title
    host = host_of(task.url)
    own = {_name_key(article.site_name)} if article.site_name else set()
    if title and _same_name(title, host, site_names | own):
        reasons.append(Reason(Doubt.SITE_NAME, (title,)))
    share = link_share(article.content_html)
    if share >= options.link_share:
        reasons.append(Reason(Doubt.LINKS, (f"{share:.0%}",)))
    return reasons


def build_report(tasks: Iterable[Task], article_of: Callable[[int], Article | None],
                 assets_of: Callable[[int], AssetMap | None], *, sample_seed: str,
                 options: ReportOptions = OPTIONS, site_names: Iterable[str] = ()) -> Report:
    """The report over ``tasks`` (the trash already left out). ``sample_seed`` fixes which
    articles are picked to read through, so a test (or a second look the same day) sees the
    same ones; ``site_names`` are names a title must not be (e.g. the archive's own)."""
    tasks = sorted(tasks, key=lambda t: t.id)
    counts = Counter(t.status for t in tasks)
    totals = {s.value: counts[s] for s in STATUSES}
    failed = [t for t in tasks if t.failure_kind is not None]

    order = list(ErrorKind)
    # a kind's failures that call for different advice (a 404 and a 429) are rows of their own
    by_kind_tasks: dict[tuple[ErrorKind, str], list[Task]] = {}
    by_host_tasks: dict[str, list[Task]] = {}
    for t in failed:
        assert t.failure_kind is not None
        by_kind_tasks.setdefault((t.failure_kind, cause(t)), []).append(t)
        by_host_tasks.setdefault(host_of(t.url), []).append(t)
    by_kind = [_group(kind.value, ts, advice)
               for (kind, advice), ts in sorted(
                   by_kind_tasks.items(),
                   key=lambda kv: (-len(kv[1]), order.index(kv[0][0]), kv[0][1]))]
    by_domain = []
    for host, ts in sorted(by_host_tasks.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        kinds = Counter(t.failure_kind for t in ts if t.failure_kind is not None)
        by_domain.append(_group(host, ts, _domain_advice(ts, options), {
            k.value: n for k, n in sorted(kinds.items(),
                                          key=lambda kv: (-kv[1], order.index(kv[0])))}))

    with_article = [t for t in tasks if t.status in HAS_ARTICLE]
    ok: Counter[str] = Counter()
    total: Counter[str] = Counter()
    missing: dict[str, Counter[str]] = {}  # image host → why its images are missing
    suspects = []
    names = {key for n in site_names if (key := _name_key(n))}
    for t in with_article:
        host = host_of(t.url)
        assets = assets_of(t.id)
        if assets is not None:  # each image under its own host: the page's is often not it
            for entry in assets.entries.values():
                where = host_of(entry.url) if "://" in entry.url else "data:"
                total[where] += 1
                if entry.path:
                    ok[where] += 1
                else:
                    missing.setdefault(where, Counter())[
                        image_cause(entry.code, entry.error or "")] += 1
        elif t.images_total is not None:
            ok[host] += t.images_ok or 0
            total[host] += t.images_total
        article = article_of(t.id)
        if article is None:
            continue
        reasons = _suspect_reasons(t, article, names, options)
        if reasons:
            suspects.append(Suspect(t.id, t.display_title, reasons, clean_href(t.id), t.url))
    images_by_domain = [_image_stats(h, ok[h], total[h], missing.get(h, Counter()))
                        for h in sorted(total, key=lambda h: (ok[h] - total[h], h))]
    images = ImageStats("all", sum(ok.values()), sum(total.values()))

    picked = random.Random(sample_seed).sample(
        with_article, min(options.sample_size, len(with_article)))
    samples = [Sample(t.id, t.display_title, clean_href(t.id), t.url)
               for t in sorted(picked, key=lambda t: t.id)]
    return Report(totals, by_kind, by_domain, images, images_by_domain,
                  sorted(suspects, key=lambda s: (-len(s.reasons), s.task_id)), samples)


def _image_stats(host: str, ok: int, total: int, reasons: Counter[str]) -> ImageStats:
    """One image host's line: its reasons, commonest first, and the advice for the commonest
    that has one."""
    ranked = dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    advice = next((r for r in ranked if r in ADVICE), "")
    return ImageStats(host, ok, total, ranked, advice)


def report_path(archive: Archive) -> Path:
    """Where the run report is: 04_logs/report.html."""
    return archive.logs_dir / REPORT_HTML


def write_report(archive: Archive, report: Report, options: ReportOptions = OPTIONS) -> Path:
    """04_logs/report.html and the record beside it (report.json, written first: the page is
    the mark a report exists), each replaced whole (derived: made again after every run)."""
    path = report_path(archive)
    record = {"generated": utc_now(), **asdict(report)}
    write_atomic(path.with_name(REPORT_JSON),
                 json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8"))
    write_atomic(path, render_report(archive, report, options).encode("utf-8"))
    return path


@dataclass(frozen=True)
class LastReport:
    """A report as written: its page, the record and when it was made."""

    path: Path  # 04_logs/report.html
    report: Report
    generated: str


def read_report(path: Path) -> LastReport | None:
    """The report record written beside the page at ``path``; None when there is none, or it
    is not one (an older Kuaibu's, a broken file): the page still is."""
    try:
        record = json.loads(path.with_name(REPORT_JSON).read_text(encoding="utf-8"))
        report = Report(
            totals={str(k): int(n) for k, n in record["totals"].items()},
            by_kind=[FailureGroup(**g) for g in record["by_kind"]],
            by_domain=[FailureGroup(**g) for g in record["by_domain"]],
            images=ImageStats(**record["images"]),
            images_by_domain=[ImageStats(**s) for s in record["images_by_domain"]],
            suspects=[Suspect(**{**s, "reasons": [Reason(Doubt(r["doubt"]), tuple(r["values"]))
                                                  for r in s["reasons"]]})
                      for s in record["suspects"]],
            samples=[Sample(**s) for s in record["samples"]])
        return LastReport(path, report, str(record["generated"]))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def render_report(archive: Archive, report: Report, options: ReportOptions = OPTIONS) -> str:
    """The report page (``report --out`` puts it elsewhere: a read-only archive's report)."""
    return environment(archive.root).get_template("report.html.j2").render(
        report=report, archive=archive.name, generated=utc_now(), ids_shown=options.ids_shown,
        gone=GONE, wayback=WAYBACK, advice=ADVICE)
