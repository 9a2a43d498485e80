"""The cost cap: no judge call starts unless the spend so far plus its estimate fits.

"Spend so far" is what answered calls cost plus the estimates held for calls not yet
answered, so concurrent calls cannot overrun the cap together. A call that does not fit
while others are running waits for them to settle (their real cost is usually below the
estimate) before it is refused; refused work goes to the offline bench. It never waits on
calls that are only queued: they may need the very thread that is waiting.
"""

from __future__ import annotations

import threading


class Budget:
    """A spending cap in USD, shared by every judge call of an audit."""

    def __init__(self, cap_usd: float) -> None:
        self.cap = cap_usd
        self.spent = 0.0
        self.reserved = 0.0
        self.running = 0
        self._changed = threading.Condition()

    def reserve(self, estimate: float) -> bool:
        """Hold ``estimate`` for a call about to start; False when it cannot fit."""
        with self._changed:
            while self.spent + self.reserved + estimate > self.cap:
                if self.running <= 0:
                    return False
                self._changed.wait()
            self.reserved += estimate
            return True

    def start(self) -> None:
        """A call holding a reservation is being sent now."""
        with self._changed:
            self.running += 1

    def settle(self, estimate: float, actual: float, *, ran: bool) -> None:
        """Replace a held estimate by what the call really cost (``ran``: it was started)."""
        with self._changed:
            self.reserved = max(0.0, self.reserved - estimate)
            self.spent += actual
            self.running -= int(ran)
            self._changed.notify_all()
