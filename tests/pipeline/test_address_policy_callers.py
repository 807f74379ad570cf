"""Every fetch path goes through the address policy (issue 25): read from the source, not hoped.

The policy has one entry point, ``AddressPolicy.for_task(link, found_on)``, and the fetch is
the one place that judges a connection by it. A fetch takes its policy inside the ``Fetcher``
it is handed, so every ``Fetcher`` made must name one. This walks ``pipeline/`` and ``gui/``
and lists who makes a task's policy, who judges by it, who makes a fetcher with it, who
fetches and who may touch the network at all, and compares each list with the one below. A
new fetch path (an import of saved pages' resources, a feed reader) fails here until it takes
its policy from ``for_task`` and passes it on — and then its place is added to these lists,
where a reviewer sees it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("pipeline", "gui")

# Who makes a task's policy (the entry point), and for what.
MAKES_A_TASK_POLICY = {
    # a run's task: page, redirects, images, browser
    "pipeline.run.stages:StageContext.addresses_for",
    # a list page; its next pages and links are its own
    "pipeline.usecases.harvesting:Harvesting.harvest",
    # the render command's page and its browser's requests
    "pipeline.usecases.rules:RulesWork.render",
    # a fetch with no task (a test, a bench): the URL as pasted
    "pipeline.net.fetch:fetch_resource",
}
# Who takes a run's task policy: the task's fetcher, which carries it to every request.
TAKES_THE_TASK_POLICY = {
    "pipeline.run.stages:StageContext.fetcher_for",
}
# Who takes a run's task fetcher (and so its policy).
TAKES_THE_TASK_FETCHER = {
    "pipeline.run.stages:_fetch",  # the page and each redirect hop
    "pipeline.run.stages:_fetch_and_render",  # the browser path's requests
    "pipeline.run.localize:_download",  # images
}
# Who judges an address or a link by a policy.
JUDGES = {
    "pipeline.net.session:_SentReporter._new_conn": "connectable",  # every connection, every hop
    "pipeline.net.session:_SentReporter.request": "check",  # a kept-alive connection's peer
    "pipeline.net.hops:_gated_exchange": "connectable",  # a hop through a proxy, judged by name
    "pipeline.intake.harvest:refuse_by_address": "refusal_of",  # a list page's candidate links
}
# Every Fetcher made, each of which must name its policy (``addresses=``, not None).
MAKES_A_FETCHER = {
    "pipeline.run.stages:StageContext.fetcher_for",  # a run's task
    "pipeline.usecases.harvesting:Harvesting.harvest",  # a list page and its next pages
    "pipeline.usecases.rules:RulesWork.render",  # the render command's page and browser
}
# Every fetch call: each is handed a Fetcher (made only where listed above).
FETCH_FUNCTIONS = ("fetch_page", "fetch_resource", "fetch_through")
FETCHES = {
    "pipeline.net.fetch:fetch_page",
    "pipeline.net.render:fetch_through.fetch",
    "pipeline.run.stages:_fetch",
    "pipeline.run.stages:_fetch_and_render",
    "pipeline.run.localize:_download",
    "pipeline.usecases.harvesting:Harvesting._harvest_page",
    "pipeline.usecases.rules:RulesWork.render",
}
# Who starts from the setting (the policy before any link is known).
STARTS_FROM_THE_SETTING = {
    "pipeline.run.runner:Runner._run",
    "pipeline.usecases.base:WorkspaceBase._addresses",
    "pipeline.net.fetch:fetch_resource",
}
# Who may import a network client at all (anything else fetching would bypass the policy).
NETWORK_MODULES = ("requests", "urllib3", "urllib.request", "http.client", "socket", "httpx",
                   "aiohttp", "playwright", "PySide6.QtNetwork", "PySide6.QtWebEngineCore",
                   "PySide6.QtWebEngineWidgets")
TALKS_TO_THE_NETWORK = {
    # the one transport (pipeline.net.fetch's parts): every request, judged at connect
    "pipeline.net.session",  # the session and its connections, which judge and connect
    "pipeline.net.hops",  # each request and redirect hop sent
    "pipeline.net.response",  # the body read
    "pipeline.net.deadline",  # a socket shut when its deadline passes or a stop comes
    "pipeline.net.fetcher",  # a requests.Session and headers handed through, for their types
    "pipeline.web.addresses",  # getaddrinfo, for the judgement itself
    "pipeline.net.render",  # the browser, whose every request is routed to fetch_resource
    "pipeline.run.stages",  # a requests.Session handed through, for its type
}


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            yield name.removesuffix(".__init__"), ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _parsed() -> tuple[tuple[str, ast.Module], ...]:
    return tuple(_modules())


@functools.cache
def _calls() -> tuple[tuple[str, ast.Call], ...]:
    """Every call in the source, with the function (``module:Class.function``) it is in."""
    def walk(module: str, node: ast.AST,
             scope: tuple[str, ...]) -> Iterator[tuple[str, ast.Call]]:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = (*scope, child.name)
            if isinstance(child, ast.Call):
                yield f"{module}:{'.'.join(scope)}", child
            yield from walk(module, child, inner)

    return tuple(found for module, tree in _parsed() for found in walk(module, tree, ()))


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _receiver(call: ast.Call) -> str:
    """The last name of what a method is called on (``hop.addresses.check`` → addresses)."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return ""
    value = func.value
    return value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")


def _callers(name: str) -> set[str]:
    return {where for where, call in _calls() if _name(call) == name}


def test_a_tasks_policy_is_made_by_the_entry_point_only_where_listed() -> None:
    assert _callers("for_task") == MAKES_A_TASK_POLICY
    assert _callers("addresses_for") == TAKES_THE_TASK_POLICY
    assert _callers("fetcher_for") == TAKES_THE_TASK_FETCHER
    assert _callers("from_setting") == STARTS_FROM_THE_SETTING


def test_no_policy_is_put_together_by_hand_outside_the_policy() -> None:
    """``AddressPolicy(...)`` with a ``local_origin`` of one's own would be a way around
    ``for_task``: only pipeline.web.addresses makes one."""
    made = {where for where, call in _calls() if not where.startswith("pipeline.web.addresses:")
            and (_name(call) == "AddressPolicy"
                 or any(k.arg == "local_origin" for k in call.keywords))}
    assert made == set()


def test_addresses_are_judged_where_listed() -> None:
    judged = {where: name for where, call in _calls()
              if not where.startswith("pipeline.web.addresses:")
              and ((name := _name(call)) in ("connectable", "refusal_of", "refusal")
                   or name == "check" and _receiver(call) == "addresses")}
    assert judged == JUDGES


def test_every_fetch_is_where_listed() -> None:
    assert {where for where, call in _calls() if _name(call) in FETCH_FUNCTIONS} == FETCHES


def _names_a_policy(call: ast.Call) -> bool:
    return any(k.arg == "addresses" and not (isinstance(k.value, ast.Constant)
                                             and k.value.value is None)
               for k in call.keywords)


def test_every_fetcher_names_its_policy() -> None:
    """A fetch judges by its fetcher's policy (a fetcher without one takes each URL as a
    pasted link): every fetcher is made where listed, each naming its policy, and none is
    given another policy after it was made."""
    made = [(where, call) for where, call in _calls() if _name(call) == "Fetcher"]
    assert {where for where, _ in made} == MAKES_A_FETCHER
    unnamed = [f"{where} makes a Fetcher (line {call.lineno})" for where, call in made
               if not _names_a_policy(call)]
    assert unnamed == [], "a fetcher without its task's address policy"
    swapped = [f"{where} (line {call.lineno})" for where, call in _calls()
               if _name(call) == "replace" and any(k.arg == "addresses" for k in call.keywords)]
    assert swapped == [], "a fetcher's policy replaced after it was made"


def test_only_the_listed_modules_can_reach_the_network() -> None:
    found = set()
    for module, tree in _parsed():
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == m or n.startswith(m + ".") for n in names for m in NETWORK_MODULES):
                found.add(module)
    assert found == TALKS_TO_THE_NETWORK
