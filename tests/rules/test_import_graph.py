"""The rule modules import each other without a circle: counting Orders or
survivors (rules/queries.py) does not need the module that builds views, and
visibility.py imports the rule modules it reads, never the other way."""

import ast
from pathlib import Path

import tracker.rules

RULES = Path(tracker.rules.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Every `from .x import` in the module, at any depth (a deferred import
    inside a function hides a circle, it does not break it)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module] & graph.keys():
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def test_rule_modules_import_each_other_without_a_circle():
    graph = {p.stem: imports_of(p) for p in RULES.glob("*.py") if p.stem != "__init__"}
    assert "visibility" not in graph["turns"] | graph["retreat"] | graph["token_uses"]
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
