"""State that functions share: globals written under ``global``, attributes set on a class
or on a module of the repository.

One function may write it and another read it, in whatever order the program runs them,
so a write is joined into what was there (a read sees every write so far), and the engine
runs its roots again while a write added taint that a root may have read before it was
written (:attr:`Shared.grown`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from courtroom.detectives.security.taint.program import ClassRef
from courtroom.detectives.security.taint.values import CLEAN, Val, join


@dataclass
class Shared:
    """Attributes written on classes, and how many writes added taint to shared state."""

    classes: dict[tuple[str, int], dict[str, Val]] = field(default_factory=dict)
    grown: int = 0

    def of_class(self, cls: ClassRef) -> dict[str, Val]:
        """The attributes written on a class (by ``Cls.attr = ...`` or ``setattr``)."""
        return self.classes.setdefault((cls.sf.path, cls.node.id), {})

    def write(self, cells: dict[str, Val], name: str, value: Val) -> None:
        """Join ``value`` into a shared variable, counting a write that adds taint."""
        old = cells.get(name)
        new = value if old is None else join(old, value)
        if new.kinds - (old.kinds if old is not None else CLEAN.kinds):
            self.grown += 1
        cells[name] = new
