"""CI configuration, and linter and type-checker configuration, read from the tree's files.

Located at the file (CI) or the line of the section that configures a tool; a tool named
in a CI step is a fact at that step's line. Nothing is run and no file outside the tree
is read: a config the tree only points to elsewhere does not count.
"""

from __future__ import annotations

import re

from courtroom.detectives.base import Case, Produces, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.repo.workspace import Workspace
from courtroom.models import Evidence
from courtroom.tree_paths import Globs
from courtroom.untrusted import one_line

CI_TAG, LINT_TAG, TYPES_TAG = "ci", "lint", "types"
#: CI systems' configuration: files in their folders, and files at the root.
CI_GLOBS = (".github/workflows/*.yml", ".github/workflows/*.yaml", ".circleci/config.yml",
            ".buildkite/*.yml")
CI_ROOT = frozenset({".gitlab-ci.yml", "Jenkinsfile", "azure-pipelines.yml", ".travis.yml",
                     "bitbucket-pipelines.yml", ".drone.yml"})
#: Tools whose configuration is a fact, and which kind of tool each is.
TOOLS = {"ruff": LINT_TAG, "flake8": LINT_TAG, "pylint": LINT_TAG, "black": LINT_TAG,
         "isort": LINT_TAG, "mypy": TYPES_TAG, "pyright": TYPES_TAG, "pytype": TYPES_TAG}
_OWN_FILES = {"mypy.ini": "mypy", ".mypy.ini": "mypy", ".flake8": "flake8", "ruff.toml": "ruff",
              ".ruff.toml": "ruff", "pyrightconfig.json": "pyright", ".pylintrc": "pylint",
              "pylintrc": "pylint", ".isort.cfg": "isort"}
_TOOL_WORDS = "|".join(sorted(TOOLS))
#: ``[tool.mypy]`` in pyproject.toml, ``[mypy]`` / ``[flake8]`` in setup.cfg and tox.ini.
_SECTION = re.compile(rf"^\[(?:tool\.)?({_TOOL_WORDS})(?:[.\]:-])")
#: A tool named in a CI step or a pre-commit hook id (a word of the line, not a substring).
_STEP = re.compile(rf"(?<![\w.-])(pytest|{_TOOL_WORDS}|tox|nox)(?![\w-])")
MAX_STEPS = 12


def _at_root(ws: Workspace, names: set[str]) -> list[str]:
    return [rel for rel in ws.files() if rel in names]


def _ci_facts(ws: Workspace) -> list[Evidence]:
    in_folders = Globs(CI_GLOBS)
    files = [rel for rel in ws.files() if rel in CI_ROOT or in_folders(rel)]
    if not files:
        return [make("ci", "CI configuration present", False, ".",
                     "No CI configuration (GitHub Actions workflows, GitLab CI, CircleCI, "
                     "Jenkins, Azure Pipelines, Travis, Bitbucket, Drone, Buildkite) in the "
                     "tree.", 0.9, (REPO, CI_TAG), direction="adverse",
                     fix="add a workflow that runs the tests.")]
    out = [make("ci", "CI configuration present", True, rel, f"{rel} configures a CI "
                "system.", 0.95, (REPO, CI_TAG), content=rel, direction="supports")
           for rel in files]
    steps: list[Evidence] = []
    for rel in files:
        for number, line in enumerate((ws.read_text(rel) or "").splitlines(), start=1):
            tools = sorted(set(_STEP.findall(line)))
            if tools and len(steps) < MAX_STEPS and not line.lstrip().startswith("#"):
                steps.append(make("ci", f"CI runs {tools[0]}", True, f"{rel}:{number}",
                                  f"The CI configuration names {', '.join(tools)} here.", 0.8,
                                  (REPO, CI_TAG, *{TOOLS.get(t, CI_TAG) for t in tools}),
                                  content=one_line(line.strip(), 200), direction="supports"))
    return out + steps


@detective("ci", produces=(
    Produces(CI_TAG, REPO, "a CI configuration file (supports) or none (adverse); a tool a "
             "CI step runs, at its line (supports)"),
    Produces(LINT_TAG, REPO, "a CI step running a linter, at its line (supports)"),
    Produces(TYPES_TAG, REPO, "a CI step running a type checker, at its line (supports)"),))
def ci(case: Case) -> list[Evidence]:
    """CI configuration files and the test, lint and type tools their steps name."""
    return _ci_facts(case.workspace)


def _configured(ws: Workspace) -> dict[str, str]:
    """Each configured tool -> where (``path:line``); the first place wins."""
    found: dict[str, str] = {}
    for rel in sorted(_at_root(ws, set(_OWN_FILES))):
        found.setdefault(_OWN_FILES[rel], f"{rel}:1")
    for rel in _at_root(ws, {"pyproject.toml", "setup.cfg", "tox.ini",
                             ".pre-commit-config.yaml"}):
        hooks = rel == ".pre-commit-config.yaml"
        for number, line in enumerate((ws.read_text(rel) or "").splitlines(), start=1):
            hit = _STEP.search(line) if hooks and "id:" in line else _SECTION.match(line)
            if hit is not None and hit.group(1) in TOOLS:
                found.setdefault(hit.group(1), f"{rel}:{number}")
    return found


@detective("linters", produces=(
    Produces(LINT_TAG, REPO, "a linter or formatter configured (ruff, flake8, pylint, black, "
             "isort; supports) or none (adverse)"),
    Produces(TYPES_TAG, REPO, "a type checker configured (mypy, pyright, pytype; supports) "
             "or none (adverse)"),))
def linters(case: Case) -> list[Evidence]:
    """Linter and type-checker configuration, located at the line that configures each."""
    found = _configured(case.workspace)
    out = [make("linters", f"{tool} configured", True, where,
                f"{tool} is configured at {where}.", 0.9, (REPO, TOOLS[tool]), content=tool,
                direction="supports") for tool, where in sorted(found.items())]
    for tag, kind in ((LINT_TAG, "linter"), (TYPES_TAG, "type checker")):
        if not any(TOOLS[tool] == tag for tool in found):
            names = ", ".join(t for t, k in sorted(TOOLS.items()) if k == tag)
            out.append(make("linters", f"A {kind} configured", False, ".",
                            f"No {kind} configuration ({names}) in pyproject.toml, setup.cfg, "
                            "tox.ini, a pre-commit hook or its own file.", 0.85, (REPO, tag),
                            direction="adverse", fix=f"configure a {kind} and run it in CI."))
    return out
