"""axe-core in the browser tests: the WCAG 2.2 AA rules run on a page as it is shown.

axe-core comes from the npm registry, pinned in package.json and package-lock.json at the
repository's root and installed into node_modules/ by ``make axe`` (``npm ci``; ``make
pytest-browser`` depends on it). It is Deque's own build, the one their browser extension
runs, and the lockfile's integrity hash pins exactly that file.

The script is evaluated in the page through the DevTools protocol, not added as a <script>
element: the site's Content-Security-Policy refuses inline scripts, and the audit must not
loosen it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_JS = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"
# The rule set: WCAG 2.0, 2.1 and 2.2, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# What fails a page. Moderate and minor findings are reported by `audit` but do not fail it.
FAILING = {"serious", "critical"}


@cache
def axe_source() -> str:
    """axe.min.js, or a failure that says how to install it."""
    if not AXE_JS.exists():
        raise AssertionError(f"{AXE_JS} is missing: run `make axe` (npm ci installs the pinned axe-core).")
    return AXE_JS.read_text(encoding="utf-8")


RUN = """
async (tags) => {
  const results = await window.axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(" "),
      html: n.html.slice(0, 200),
      summary: (n.failureSummary || "").split("\\n").slice(0, 3).join(" "),
    })),
  }));
}
"""


def violations(page: Page) -> list[dict[str, Any]]:
    """The page's violations of the WCAG 2.2 A/AA rules (every impact)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    result: list[dict[str, Any]] = page.evaluate(RUN, TAGS)
    return result


def serious(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [violation for violation in found if violation["impact"] in FAILING]


def describe(where: str, found: list[dict[str, Any]]) -> str:
    """One line per rule and up to three of its elements, for a failure message."""
    lines = []
    for violation in found:
        count = len(violation["nodes"])
        lines.append(f"{where}: {violation['id']} ({violation['impact']}, {count}x) {violation['help']}")
        for node in violation["nodes"][:3]:
            lines.append(f"    {node['target']}: {node['html']} -- {node['summary']}")
    return "\n".join(lines)
