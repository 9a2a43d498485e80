"""State that functions share: globals written under ``global``, attributes set on a class
or on a module of the repository.

One function may write it and another read it, in whatever order the program runs them,
so a write is joined into what was there (a read sees every write so far), and the engine
runs again the roots that name a variable whose taint grew (:attr:`Shared.grown`): one of
them may have read it before it was written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from courtroom.detectives.security.taint.program import ClassRef
from courtroom.detectives.security.taint.values import API, CLEAN, Val, join


@dataclass
class Shared:
    """Attributes written on classes, and the shared variables whose taint grew."""

    classes: dict[tuple[str, int], dict[str, Val]] = field(default_factory=dict)
    grown: set[str] = field(default_factory=set)

    def of_class(self, cls: ClassRef) -> dict[str, Val]:
        """The attributes written on a class (by ``Cls.attr = ...`` or ``setattr``)."""
        return self.classes.setdefault((cls.sf.path, cls.start), {})

    def write(self, cells: dict[str, Val], name: str, value: Val) -> None:
        """Join ``value`` into a shared variable, noting its name when it gains taint.

        An API's parameter kept whole (``self.config = config`` in a function nothing
        calls) is not counted: every library stores its arguments, and running every root
        again for each would multiply the analysis's cost for data its caller chose.
        """
        old = cells.get(name)
        new = value if old is None else join(old, value)
        if new.kinds - (old.kinds if old is not None else CLEAN.kinds) and \
                API not in value.flags:
            self.grown.add(name)
        cells[name] = new
