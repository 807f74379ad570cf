"""A site's rules: reading, checking and saving them, trying them on stored pages, Pick content,
the browser path.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.records.article import Article
from pipeline.records.errors import KuaibuError
from pipeline.records.failures import Failure
from pipeline.records.task import Task
from pipeline.rules.model import Rules, load_rules, parse_rules
from pipeline.usecases.changed import Changed
from pipeline.usecases.running import Running
from pipeline.web.urls import host_of

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them

    from pipeline.rules.findings import Node as PageNode
    from pipeline.rules.findings import RuleEffect, Suggestion

# How many of a site's stored pages "Pick content" checks a selector on.
SITE_PAGES = 30
# An article that would lose more than this share of its text under new rules is named before
# they are applied, as one lost entirely is: 8,280 characters cut to 396 is a loss, not a trim.
SHRUNK_SHARE = 1 / 3


@dataclass(frozen=True)
class Trial:
    """One stored page under rules being tried: its article now, and under those rules."""

    task: Task
    before_chars: int | None  # the stored article's; None when it has none
    before_confidence: float | None
    after_chars: int | None  # None when the rules find no article
    after_confidence: float | None
    error: str = ""  # why the rules find no article

    @property
    def change(self) -> int:
        return (self.after_chars or 0) - (self.before_chars or 0)

    @property
    def lost(self) -> bool:
        """An article the page had, gone under these rules."""
        return self.before_chars is not None and self.after_chars is None

    @property
    def shrunk(self) -> bool:
        """An article the page keeps under these rules, but with more than ``SHRUNK_SHARE`` of
        its text gone."""
        return (self.before_chars is not None and self.after_chars is not None
                and self.after_chars < (1 - SHRUNK_SHARE) * self.before_chars)


@dataclass(frozen=True)
class Undone:
    """An undone rules change: the saved copy the file came back from, and the tasks of the
    sections it changed (to clean again)."""

    restored_from: Path
    sections: list[str]
    task_ids: list[int]


class RulesWork(Running):
    """A site's rules: reading, checking and saving them, trying them on stored pages, Pick
    content, the browser path (built on ``Running``: saved rules clean their sites again)."""

    def rules_text(self) -> str:
        """rules.yaml's text as saved ("" before there is one); RulesError when it is too
        large or not UTF-8, so that no one opens, or edits, what cannot be read back."""
        from pipeline.rules.yaml_file import read_rules_text

        path = self.archive.rules_path
        return read_rules_text(path) if path.exists() else ""

    @property
    def rules_history(self) -> Path:
        """04_logs/rules-history/: each rules.yaml as it was before a save, oldest first."""
        return self.archive.logs_dir / "rules-history"

    def save_rules(self, text: str) -> Rules:
        """Write rules.yaml, after checking it (a file that does not validate is refused);
        the file as it was is kept in ``rules_history`` first, for ``undo_rules``."""
        from pipeline.store.archive import utc_now, write_atomic

        rules = parse_rules(text, str(self.archive.rules_path))
        path, data = self.archive.rules_path, text.encode("utf-8")
        if path.exists() and path.read_bytes() != data:
            self.rules_history.mkdir(parents=True, exist_ok=True)
            # sorted by name is oldest first: the count keeps saves within a second apart
            count = len(list(self.rules_history.glob("*.yaml")))
            stamp = utc_now().replace(":", "").replace("+00:00", "Z")
            write_atomic(self.rules_history / f"{count:05d}-{stamp}.yaml", path.read_bytes())
        write_atomic(path, data)
        self.changed(Changed.RULES)
        return rules

    def set_rules(self, section: str, values: Mapping[str, object | None]) -> Rules:
        """Set keys of one section of rules.yaml (None removes a key), the rest of the file
        and its comments kept, then save it as ``save_rules`` does (checked first; the old
        file kept for ``undo_rules``): what the window's one-click rules and ``rules set``
        write."""
        path = self.archive.rules_path
        self.rules()  # a file that does not validate is refused before it is touched
        changed = self.edit_rules_text(self.rules_text(), section.strip().lower(), values)
        if changed is None:
            raise KuaibuError(f"section {section} of {path.name} is written inline"
                              " ({…}); edit it by hand")
        return self.save_rules(changed)

    def check_rules(self, text: str) -> Rules:
        """Rules text as a person types it, checked as rules.yaml is when read (RulesError
        naming its line), not saved: the rules editor's check as you type, and its preview."""
        return parse_rules(text, self.archive.rules_path.name)

    @staticmethod
    def edit_rules_text(text: str, section: str,
                        values: Mapping[str, object | None]) -> str | None:
        """``text`` with one section's keys set to ``values`` (None removes a key; comments
        and the other sections kept), not saved: ``set_rules``, and the rules editor's form
        writing into its text. None when the section is written inline (``site: {a: b}``),
        which only the text itself can change."""
        from pipeline.rules.text_edit import FlowSectionError, set_section_keys

        try:
            return set_section_keys(text, section, values)
        except FlowSectionError:
            return None

    def browser_problem(self) -> Failure | None:
        """What to install before pages can be rendered (None: Playwright and a Chromium are
        there), so an option to render says so instead of failing later."""
        from pipeline.net.render import browser_problem

        return browser_problem(self.settings)

    def render_sites(self, task_ids: Iterable[int]) -> list[str]:
        """Have the tasks' sites rendered with the browser from now on (``render: browser``
        in the section each host's rules come from, else one for the host); the sections
        set. Refused, writing nothing, when no browser can render here."""
        if problem := self.browser_problem():
            raise KuaibuError(problem)
        rules = self.rules()
        sections = sorted({rules.section_for_host(host_of(self.task(i).url)) for i in task_ids})
        for section in sections:
            self.set_rules(section, {"render": "browser"})
        return sections

    def saved_rules(self) -> list[Path]:
        """The copies ``undo_rules`` can go back to, oldest first (none: nothing to undo)."""
        history = self.rules_history
        return sorted(history.glob("*.yaml")) if history.is_dir() else []

    def undo_rules(self) -> Undone | None:
        """Put back rules.yaml as it was before the last save, byte for byte; the tasks of
        the sections that changed are the caller's to clean again. None: nothing to undo."""
        from pipeline.records.errors import RulesError
        from pipeline.store.archive import write_atomic

        saved = self.saved_rules()
        if not saved:
            return None
        last = saved[-1]
        try:
            now: Rules | None = self.rules()
        except RulesError:  # edited by hand into a broken file: every section may differ
            now = None
        restored = load_rules(last)  # one the checks now refuse is not put back
        write_atomic(self.archive.rules_path, last.read_bytes())
        last.unlink()
        self.changed(Changed.RULES)
        sections = (restored.sections_differing(now) if now is not None
                    else ["default"])
        if "default" in sections:
            ids = self.reclean_ids()
        else:
            ids = sorted({i for d in sections for i in self.reclean_ids(domain=d)})
        return Undone(last, sections, ids)

    def rule_effects(self, task: Task, rules: Rules) -> list[RuleEffect]:
        """What each of the rules for the task's host does on its stored page ([] before
        the page is fetched)."""
        from pipeline.extract.effects import rule_effects

        html = self.raw_html(task, rules)
        return rule_effects(html, rules.for_host(host_of(task.url))) if html else []

    def try_rules(self, rules: Rules, *, domain: str | None = None,
                  task_ids: Iterable[int] | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  stop: Callable[[], bool] | None = None) -> list[Trial]:
        """Every stored page of a domain (or the tasks named) extracted again with ``rules``,
        nothing written: each with its article before and after, the ones that got worse
        first (articles lost, then the largest losses)."""
        from pipeline.records.errors import ExtractError

        ids = self.reclean_ids(task_ids, domain)
        trials: list[Trial] = []
        for done, task_id in enumerate(ids, start=1):
            if stop is not None and stop():
                break
            task = self.task(task_id)
            before = self.archive.read_article(task_id)
            try:
                after: Article | None = self.test_rules(task, rules)
                error = ""
            except ExtractError as e:
                after, error = None, str(e)
            trials.append(Trial(
                task, before.chars if before else None, before.confidence if before else None,
                after.chars if after else None, after.confidence if after else None, error))
            if progress is not None:
                progress(done, len(ids))
        return sorted(trials, key=lambda t: (not t.lost, t.change, t.task.id))

    def test_rules(self, task: Task, rules: Rules) -> Article:
        """The article of a stored page with ``rules`` (as typed, maybe unsaved); no network.
        Raises ExtractError when they find no article."""
        from pipeline.run.stages import article_from_raw

        return article_from_raw(self.archive, task, rules, self.settings)

    def suggest(self, task: Task, rules: Rules) -> Suggestion:
        """"Pick content": a content selector for the element holding what the extractor
        itself picks (the rules' own content_selector set aside), checked on the domain's
        other stored pages (how many it finds the article in), with why when no single
        element holds the article."""
        from pipeline.extract.suggest import suggest

        automatic = Rules(default=rules.default)
        article = self.test_rules(task, automatic)
        return suggest(self.raw_html(task, automatic), article.text,
                       self._site_pages(task, automatic))

    def selector_for_element(self, task: Task, path: str, rules: Rules) -> Suggestion:
        """The stable selector for an element a person picked on the task's stored page
        (``path`` from ``element_tree``), checked on the domain's other stored pages."""
        from pipeline.extract.suggest import selector_for_element
        from pipeline.records.errors import ExtractError

        automatic = Rules(default=rules.default)
        try:
            text = self.test_rules(task, automatic).text
        except ExtractError:
            text = ""
        return selector_for_element(self.raw_html(task, automatic), path,
                                    self._site_pages(task, automatic), text)

    def element_tree(self, task: Task) -> list[PageNode]:
        """The blocks of the task's stored page that hold text, to pick one from."""
        from pipeline.extract.suggest import element_tree

        html = self.raw_html(task)
        return element_tree(html) if html else []

    def _site_pages(self, task: Task, rules: Rules, limit: int = SITE_PAGES) -> list[str]:
        """The stored pages of the task's host other than its own, the latest ``limit``
        (a selector checked on a few dozen is checked well enough, and each costs a parse)."""
        host = host_of(task.url)
        others = [t for t in self.tasks() if t.id != task.id and host_of(t.url) == host
                  and self.archive.has_raw(t.id)]
        return [self.raw_html(t, rules) for t in others[-limit:]]

    def render(self, url: str) -> Article:
        """A page rendered in the browser and extracted, nothing stored: a quick check of what
        a site's ``render: browser`` rule would archive (``python main.py render URL``). The
        page and every request of the browser are fetched with the archive's settings, rules,
        cookies and politeness, as a run fetches them. Raises KuaibuError naming what to
        install when this machine cannot render; FetchError, ExtractError as a run fails."""
        from pipeline.extract import extract
        from pipeline.net.cookies import load_cookies
        from pipeline.net.fetch import fetch_page
        from pipeline.net.fetcher import Fetcher
        from pipeline.net.politeness import HostGate
        from pipeline.net.render import Renderer, fetch_through
        from pipeline.net.session import new_session

        rules = self.rules()
        gate, cookies = HostGate(self.settings), load_cookies(self.settings, rules)
        addresses = self._addresses().for_task(url)
        with Renderer(self.settings) as renderer, new_session(self.settings) as session:
            if problem := renderer.problem():
                raise KuaibuError(problem)
            fetcher = Fetcher(session, self.settings, rules, gate=gate, cookies=cookies,
                              addresses=addresses)
            page = fetch_page(fetcher, url)
            rendered = renderer.render(page, fetch_through(fetcher, page.final_url))
        return extract(rendered.html, rendered.final_url,
                       rules.for_host(host_of(rendered.final_url)), rendered=True)
