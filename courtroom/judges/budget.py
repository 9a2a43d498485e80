"""The cost cap: no judge call starts unless the spend so far plus its estimate fits.

"Spend so far" is what answered calls cost plus the estimates of calls still in flight,
so concurrent calls cannot overrun the cap together. A call that does not fit while
others are in flight waits for them to settle (their real cost is usually below the
estimate) before it is refused; refused work goes to the offline bench.
"""

from __future__ import annotations

import threading


class Budget:
    """A spending cap in USD, shared by every judge call of an audit."""

    def __init__(self, cap_usd: float) -> None:
        self.cap = cap_usd
        self.spent = 0.0
        self.reserved = 0.0
        self._changed = threading.Condition()

    def reserve(self, estimate: float) -> bool:
        """Hold ``estimate`` for a call about to start; False when it cannot fit."""
        with self._changed:
            while self.spent + self.reserved + estimate > self.cap:
                if self.reserved <= 0:
                    return False
                self._changed.wait()
            self.reserved += estimate
            return True

    def settle(self, estimate: float, actual: float) -> None:
        """Replace a held estimate by what the call really cost."""
        with self._changed:
            self.reserved = max(0.0, self.reserved - estimate)
            self.spent += actual
            self._changed.notify_all()

    def spend(self, actual: float) -> None:
        """Record a cost that was never reserved (it still counts toward the cap)."""
        self.settle(0.0, actual)
