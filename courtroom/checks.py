"""Declarative checks a rubric criterion may carry: facts about that criterion, no code.

A rubric may come from the pull request it judges, so every check is validated when the
rubric loads (a bad tree-sitter query, an unsafe glob or pattern is one ``RubricError``
line before any work) and none can cost more than linear time: text patterns are plain
substrings, globs are ``tree_paths.Globs``, queries may not use regular-expression
predicates. The checks run as detectives (``courtroom.detectives.checks``); each fact is
tagged ``check`` and ``criterion:<id>`` and points the way the rubric says.
"""

from __future__ import annotations

import functools
import re
from typing import Annotated, Literal

import tree_sitter
import tree_sitter_python
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from courtroom.models import Direction
from courtroom.tree_paths import glob_problem

#: Tag of every fact a declarative check yields.
CHECK_TAG = "check"
#: Longest tree-sitter query a rubric may hold.
MAX_QUERY_CHARS = 4_000
#: The query predicates allowed: plain comparisons. The ``#match?`` family runs Python's
#: backtracking regular expressions on the audited text, so it (and anything unknown) is
#: refused.
_PREDICATES = frozenset({"eq?", "not-eq?", "any-eq?", "any-not-eq?", "any-of?",
                         "not-any-of?"})
_PREDICATE = re.compile(r"#([^\s()\"@]*)")

Hit = Literal["supports", "adverse"]


def criterion_tag(criterion_id: str) -> str:
    """The tag routing a check's facts to the criterion that declares the check."""
    return f"criterion:{criterion_id}"


# Not detectives.parsing.language: the rubric imports this module, and importing the
# detectives package from here would load every detective, and the rubric, in a loop.
@functools.cache
def python_language() -> tree_sitter.Language:
    """The tree-sitter grammar queries are written against."""
    return tree_sitter.Language(tree_sitter_python.language())


def _safe_glob(value: str) -> str:
    problem = glob_problem(value)
    if problem is not None:
        raise ValueError(f"glob {value!r} {problem}")
    return value.strip()


#: A repo-relative glob (``tree_paths.Globs`` syntax), refused when it could leave the tree.
Glob = Annotated[str, AfterValidator(_safe_glob)]


class BaseCheck(BaseModel):
    """What every check says: what a hit means and which way a hit and a miss point."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    meaning: str = Field(min_length=1, max_length=200,
                         description="What a hit means, in a short sentence.")
    hit: Hit = Field(default="supports", description="Direction of a fact the check finds.")
    miss: Direction | None = Field(
        default=None, description="Direction of the fact saying nothing was found; "
        "absent: the opposite of hit.")

    def direction(self, found: bool) -> Direction:
        """Which way a fact points: the hit's direction, else the miss's."""
        if found:
            return self.hit
        if self.miss is not None:
            return self.miss
        return "adverse" if self.hit == "supports" else "supports"


class _Threshold(BaseModel):
    """A bound on a number: the check hits when the number is within it."""

    at_least: float | None = None
    at_most: float | None = None

    @model_validator(mode="after")
    def _one_bound(self) -> _Threshold:
        if (self.at_least is None) == (self.at_most is None):
            raise ValueError("give exactly one of at_least, at_most")
        return self

    def holds(self, value: float) -> bool:
        """Whether ``value`` is within the bound."""
        if self.at_least is not None:
            return value >= self.at_least
        return value <= (self.at_most or 0.0)

    @property
    def bound(self) -> str:
        """The bound in words."""
        if self.at_least is not None:
            return f"at least {self.at_least:g}"
        return f"at most {self.at_most or 0.0:g}"


class QueryCheck(BaseCheck):
    """A tree-sitter query over the source files; each capture is a located fact."""

    kind: Literal["query"]
    language: Literal["python"] = "python"
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    glob: Glob = "**/*.py"
    capture: str | None = Field(default=None, description="The capture that is the fact; "
                                "absent: every capture.")

    @field_validator("query")
    @classmethod
    def _compiles(cls, value: str) -> str:
        refused = sorted(set(_PREDICATE.findall(value)) - _PREDICATES)
        if refused:
            raise ValueError(f"query predicate #{refused[0]} is not allowed (only "
                             f"{', '.join('#' + p for p in sorted(_PREDICATES))}); "
                             "for a pattern, use a text check")
        try:
            tree_sitter.Query(python_language(), value)
        except tree_sitter.QueryError as exc:
            raise ValueError(f"invalid tree-sitter query: {exc}") from exc
        return value

    @model_validator(mode="after")
    def _capture_exists(self) -> QueryCheck:
        compiled = tree_sitter.Query(python_language(), self.query)
        names = {compiled.capture_name(i) for i in range(compiled.capture_count)}
        if not names:
            raise ValueError("the query captures nothing: name a node with @name")
        if self.capture is not None and self.capture not in names:
            raise ValueError(f"capture {self.capture!r} is not in the query ({sorted(names)})")
        return self


class PathCheck(BaseCheck):
    """Whether any file matches a glob (a hit per matching file)."""

    kind: Literal["path"]
    glob: Glob


class TextCheck(BaseCheck):
    """Plain substrings inside the files matching a glob (a hit per matching line)."""

    kind: Literal["text"]
    glob: Glob
    contains: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        min_length=1, max_length=20, description="Any of these substrings is a hit.")
    ignore_case: bool = False


class CountCheck(BaseCheck, _Threshold):
    """A number measured over the tree, held against a threshold."""

    kind: Literal["count"]
    measure: Literal["files", "test_functions", "tests_per_module", "long_functions"]
    glob: Glob | None = Field(default=None, description="Which files count (measure files).")
    lines: int = Field(default=50, ge=1, le=10_000,
                       description="A long function has more lines than this.")

    @model_validator(mode="after")
    def _glob_for_files(self) -> CountCheck:
        if self.measure == "files" and self.glob is None:
            raise ValueError("measure 'files' needs a glob")
        return self


class GitCheck(BaseCheck, _Threshold):
    """Commits touching the paths a glob matches, held against a threshold."""

    kind: Literal["git"]
    glob: Glob


class SecurityCheck(BaseCheck):
    """Confirmed security findings of the listed CWEs (every CWE when the list is empty)."""

    kind: Literal["security"]
    hit: Hit = "adverse"
    cwe: list[Annotated[int, Field(ge=1, le=100_000)]] = Field(default_factory=list,
                                                              max_length=50)


Check = Annotated[QueryCheck | PathCheck | TextCheck | CountCheck | GitCheck | SecurityCheck,
                  Field(discriminator="kind")]
