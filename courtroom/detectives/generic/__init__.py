"""Generic detectives: located facts about what teams gate on, for any rubric (tests, CI,
linters and type checkers, dependencies, secrets, code size, exceptions, logging, README,
licence)."""
