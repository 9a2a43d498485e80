"""Analyses several detectives share, each computed once per workspace.

``@per_workspace`` turns ``build(ws) -> T`` into a function that runs ``build`` once for
each workspace, even when detectives race for it on their threads, and hands every caller
the same typed value. Each cached function keeps its own values, keyed weakly on the
workspace: they go when the audit's workspace goes. What ``build`` returns must not hold
the workspace itself, or the value would keep its key alive.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from courtroom.detectives.repo.workspace import Workspace

T = TypeVar("T")


class PerWorkspace(Generic[T]):
    """``build`` run at most once per workspace; its value shared by every caller."""

    def __init__(self, build: Callable[[Workspace], T]) -> None:
        self._build = build
        self._values: weakref.WeakKeyDictionary[Workspace, T] = weakref.WeakKeyDictionary()
        self._locks: weakref.WeakKeyDictionary[Workspace, threading.Lock] = (
            weakref.WeakKeyDictionary())
        self._guard = threading.Lock()
        functools.update_wrapper(self, build)

    def __call__(self, ws: Workspace) -> T:
        with self._guard:
            lock = self._locks.setdefault(ws, threading.Lock())
        # One lock per workspace: a second caller waits for the first build, not a rerun.
        with lock:
            if ws not in self._values:
                self._values[ws] = self._build(ws)
            return self._values[ws]

    def peek(self, ws: Workspace) -> T | None:
        """The value already built for ``ws``, without building it."""
        with self._guard:
            return self._values.get(ws)


def per_workspace(build: Callable[[Workspace], T]) -> PerWorkspace[T]:
    """Decorate ``build`` so it runs once per workspace (see the module's docstring)."""
    return PerWorkspace(build)
