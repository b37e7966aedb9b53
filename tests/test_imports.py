"""Services and tasks import each other one way only: tasks import services, services import the
follow-up module that sends tasks by name, and no circle runs through them (function-local imports
included)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


PACKAGES = (
    "accounts",
    "analysis",
    "bench",
    "chat",
    "games",
    "harehra",
    "harehra_site",
    "live",
    "moderation",
    "notifications",
    "plumbing",
    "ratings",
    "relations",
    "replays",
    "tournaments",
    "webpush",
)


def _imports(path: Path, package: str) -> set[str]:
    """Every module of `package` that `path` imports, at any depth of its code."""
    return {m for m in _all_imports(path) if m == package or m.startswith(package + ".")}


@functools.cache
def _all_imports(path: Path) -> frozenset[str]:
    """Every module `path` imports; each file is parsed once however many graphs take it in."""
    name = _module_name(path)
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here.split(".")[: len(here.split(".")) - (node.level - 1)] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names)
    return frozenset(out)


def _graph(*packages: str) -> dict[str, set[str]]:
    paths = [p for pkg in packages for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts]
    modules = {_module_name(p): p for p in paths}
    return {
        name: {m for pkg in packages for m in _imports(path, pkg) if m in modules and m != name}
        for name, path in modules.items()
    }


def _cycle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in graph.get(node, ()):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def test_no_import_circle_runs_through_the_services_or_the_tasks() -> None:
    graph = _graph("games")
    writers = [m for m in graph if m.startswith("games.services.") or m in ("games.tasks", "games.followups")]
    assert "games.services.moves" in writers and "games.tasks" in writers
    cycles = [c for m in writers if (c := _cycle_through(graph, m))]
    assert cycles == []
    services = [m for m in graph if m.startswith("games.services")]
    assert services and all("games.tasks" not in graph[m] for m in services), "services import no task"
    assert "games.services.autoplay" in graph["games.tasks"]


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle_through(graph, "a") == ["a", "b", "c", "a"]
    assert _cycle_through(graph, "d") is None


def test_no_module_of_the_project_imports_itself_back_through_others() -> None:
    graph = _graph(*PACKAGES)
    assert {"games.access", "replays.access", "games.sql", "moderation.selectors"} <= set(graph)
    cycles = {tuple(c) for m in graph if (c := _cycle_through(graph, m))}
    assert cycles == set()


def test_the_app_packages_hold_no_benchmark_or_test_harness() -> None:
    apps = [p for p in PACKAGES if p not in ("bench", "harehra_site")]
    graph = _graph(*apps, "bench", "tests")
    reaching = {
        m: sorted(t for t in targets if t.startswith(("bench", "tests")))
        for m, targets in graph.items()
        if m.split(".")[0] in apps and ".management.commands." not in m
    }
    assert {m: t for m, t in reaching.items() if t} == {}
    assert [p for app in apps for p in (ROOT / app).glob("benchmarks/*.py")] == []


# Which app may import which: lower layers never import higher ones. The pure game at the bottom;
# accounts knows no game; games knows no app above it (they subscribe to its hooks); profiles
# gathers a page from several; moderation acts on all it moderates; bench measures everything.
# live, the sockets, sits on top of every app: it calls their services and selectors and forwards
# what they publish through the plumbing (plumbing/publish.py), and only the composition root
# imports it, through its public interface (live/__init__.py).
# plumbing is what every app may use (errors, hooks, parameters, raw SQL, the publish call, ...) and
# imports no app; harehra_site is the composition root (settings, urls, asgi, routing, celery, its
# commands), which may import any app and which no app imports.
MAY_IMPORT = {
    "harehra": set(),
    "plumbing": set(),
    "accounts": {"plumbing"},
    # Who follows and who blocks whom: between accounts, below the games a block keeps apart.
    # What the site tells a person: below everything that tells them something.
    "notifications": {"accounts", "plumbing"},
    "relations": {"accounts", "notifications", "plumbing"},
    # Notifications to a person's devices: hears of each from notifications (its hook).
    "webpush": {"accounts", "notifications", "plumbing"},
    # A decision awaited with no page open is told (games/services/turns.py).
    "games": {"harehra", "accounts", "notifications", "relations", "plumbing"},
    "ratings": {"harehra", "accounts", "games", "plumbing"},
    # A challenge makes a table (games) for people who may be challenged (relations), and tells them.
    "challenges": {"harehra", "accounts", "notifications", "relations", "games", "plumbing"},
    "replays": {"harehra", "accounts", "games", "plumbing"},
    "chat": {"harehra", "accounts", "games", "plumbing"},
    "profiles": {
        "harehra",
        "accounts",
        "relations",
        "games",
        "ratings",
        "tournaments",
        "analysis",
        "plumbing",
    },
    "moderation": {
        "harehra",
        "accounts",
        "notifications",
        "games",
        "chat",
        "replays",
        "ratings",
        "tournaments",
        "plumbing",
    },
    "tournaments": {"harehra", "accounts", "notifications", "games", "plumbing"},
    # An analysis is read and asked for on a replay: by the replay's access, by a signed-in account.
    "analysis": {"harehra", "accounts", "notifications", "games", "replays", "plumbing"},
    "live": {
        "harehra",
        "accounts",
        "notifications",
        "relations",
        "games",
        "ratings",
        "replays",
        "chat",
        "tournaments",
        "analysis",
        "profiles",
        "moderation",
        "plumbing",
    },
    "bench": {
        "analysis",
        "notifications",
        "webpush",
        "harehra",
        "accounts",
        "games",
        "chat",
        "replays",
        "ratings",
        "moderation",
        "tournaments",
        "plumbing",
    },
}
COMPOSITION_ROOT = (
    "harehra_site.settings",
    "harehra_site.urls",
    "harehra_site.asgi",
    "harehra_site.routing",
    "harehra_site.celery",
    "harehra_site.embedded",
    "harehra_site.management",
)
APPS = (*MAY_IMPORT, "harehra_site")
# The settings of the servers a bench or a test starts: the site's settings with one change (a
# fast password hasher), so a composition root of their own.
SERVER_SETTINGS = ("bench.kit.server_settings",)


def _app_edges() -> set[tuple[str, str, str]]:
    """(module, the app it imports, the module imported) for every import across apps."""
    edges = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            module = _module_name(path)
            for target in _all_imports(path):
                other = target.split(".")[0]
                if other in APPS and other != app:
                    edges.add((module, other, target))
    return edges


def test_apps_import_one_way() -> None:
    edges = _app_edges()
    assert ("games.push", "harehra", "harehra") in edges  # the check reads real imports
    wrong = sorted(
        (module, target)
        for module, other, target in edges
        if (app := module.split(".")[0]) != "harehra_site"
        and other not in MAY_IMPORT[app]
        and module not in SERVER_SETTINGS
    )
    assert wrong == []


def test_no_app_imports_the_composition_root() -> None:
    """harehra_site holds only the composition root: the apps, the live tier and the plumbing
    never import it (the servers' own settings extend the site's)."""
    into_root = sorted(
        (module, target)
        for module, other, target in _app_edges()
        if other == "harehra_site" and module not in SERVER_SETTINGS
    )
    assert into_root == []
    assert {p.name for p in (ROOT / "harehra_site").glob("*.py")} == {
        "__init__.py", "asgi.py", "beat.py", "celery.py", "embedded.py", "endpoint_costs.py",
        "memory_broker.py", "routing.py", "settings.py", "urls.py",
    }  # fmt: skip


def test_the_composition_root_is_only_imported_by_itself() -> None:
    roots = sorted(
        (module, target)
        for module, other, target in _app_edges()
        if other == "harehra_site" and target.startswith(COMPOSITION_ROOT) and module not in SERVER_SETTINGS
    )
    assert roots == []


def test_the_benchmarks_import_nothing_of_the_tests() -> None:
    """The tests may use the benchmark kit (bench/kit/); the benchmarks never stand on the tests."""
    paths = list((ROOT / "bench").rglob("*.py"))
    assert any(p.parts[-2:] == ("kit", "stack.py") for p in paths)
    reaching = {
        _module_name(p): sorted(m for m in _all_imports(p) if m == "tests" or m.startswith("tests."))
        for p in paths
    }
    assert {m: t for m, t in reaching.items() if t} == {}
    # Nor do they start processes on the tests' modules (a settings module named in the environment).
    named = [p for p in paths if '"tests.' in p.read_text() or "'tests." in p.read_text()]
    assert named == []


def test_the_allow_list_names_no_circle() -> None:
    for app, allowed in MAY_IMPORT.items():
        for other in allowed:
            assert app not in MAY_IMPORT.get(other, set()), (app, other)


def test_no_app_imports_the_live_tier_and_the_root_only_its_public_interface() -> None:
    import live

    edges = _app_edges()
    into_live = [(module, target) for module, other, target in edges if other == "live"]
    assert ("harehra_site.routing", "live.routes") in into_live  # the check reads real imports
    assert ("live.game", "games.services.moves") in {(m, t) for m, _, t in edges}
    assert sorted(m for m, _ in into_live if not m.startswith(COMPOSITION_ROOT)) == []
    public = {"live", *(f"live.{name}" for name in live.__all__)}
    assert sorted((m, t) for m, t in into_live if t not in public) == []
