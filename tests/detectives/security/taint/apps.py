"""Builders of one-route applications: a source reaching a sink, and its sanitised twin.

The path sink tells a web source apart: a parameter of a function nothing calls is local
input (it may name the user's own files), so only request data confirms a path traversal.
"""

from __future__ import annotations

from detectives.security.taint.programs import flows

#: Sink kind -> (the sink built from a value, the sanitiser of its twin, the rule).
SINKS = {
    "shell": ("os.system('ls ' + {})", "shlex.quote", "shell-injection"),
    "path": ("open('/srv/files/' + {})", "os.path.basename", "path-traversal"),
}


def app(template: str, source: str, sink: str, sanitised: bool) -> str:
    """``template`` with ``SINK`` replaced by a sink fed from ``source`` (or its sanitised form)."""
    call, sanitiser, _rule = SINKS[sink]
    value = f"{sanitiser}({source})" if sanitised else source
    return "import os\nimport shlex\n" + template.replace("SINK", call.format(value))


def confirmed(files: dict[str, str]) -> list[str]:
    """The rules of the flows found in a repository."""
    return [f.rule for f in flows(files)]


def twins(template: str, source: str, sink: str = "shell") -> tuple[list[str], list[str]]:
    """The rules confirmed in the application and in its sanitised twin."""
    return (confirmed({"app.py": app(template, source, sink, sanitised=False)}),
            confirmed({"app.py": app(template, source, sink, sanitised=True)}))


def assert_twins(name: str, template: str, source: str, sink: str) -> None:
    """The application confirms its sink's rule; its sanitised twin confirms nothing."""
    raw, sanitised = twins(template, source, sink)
    assert raw == [SINKS[sink][2]], name
    assert sanitised == [], name
