"""The tools detective: how the submission's own tools clone, run commands and read files."""

from __future__ import annotations

from dataclasses import dataclass

from courtroom.detectives.base import Case, detective
from courtroom.detectives.common import REPO, make
from courtroom.detectives.parsing import (
    SourceFile,
    call_arguments,
    matches,
    node_text,
    source_index,
)
from courtroom.detectives.source import no_python
from courtroom.models import Evidence

NAME = "tools"
TAGS = (REPO, "tools", "sandbox")


@dataclass(frozen=True)
class ToolCall:
    """One located process or sandbox call."""

    kind: str
    location: str
    excerpt: str


_SUBPROCESS = {"run", "Popen", "call", "check_call", "check_output"}
_TEMP = {"TemporaryDirectory", "mkdtemp", "NamedTemporaryFile", "TemporaryFile", "mkstemp"}


def _scan(sf: SourceFile) -> list[ToolCall]:
    """Process, temp-dir and clone calls of one file."""
    out: list[ToolCall] = []
    for caps in matches("calls", sf.root):
        name = node_text(caps.get("call.method", caps.get("call.name", [None]))[0])
        call = caps.get("call.method_call", caps.get("call.plain", [None]))[0]
        if call is None:
            continue
        obj = sf.text(caps["call.object"][0]) if "call.object" in caps else ""
        excerpt = " ".join(sf.text(call).split())[:140]
        positional, keywords = call_arguments(caps["call.args"][0])
        if obj == "subprocess" and name in _SUBPROCESS:
            shell = "shell" in keywords and sf.text(keywords["shell"]) != "False"
            form = "argument list" if positional and positional[0].type == "list" else \
                "non-list command"
            guards = [k for k in ("timeout", "check", "cwd") if k in keywords]
            kind = f"subprocess.{name} with {form}" + (", shell=True" if shell else "") + \
                (f", {'/'.join(guards)}=" if guards else ", no timeout/check")
            out.append(ToolCall(kind, sf.loc(call), excerpt))
        elif obj == "os" and name in ("system", "popen"):
            out.append(ToolCall(f"os.{name} (shell string)", sf.loc(call), excerpt))
        elif name in _TEMP:
            out.append(ToolCall(f"tempfile.{name} (isolated working area)", sf.loc(call),
                                excerpt))
        elif name == "clone_from":
            out.append(ToolCall("GitPython Repo.clone_from", sf.loc(call), excerpt))
    return out


def _error_handling(sf: SourceFile) -> list[str]:
    """Error-handling markers present in a file."""
    text = sf.source.decode("utf-8", "replace")
    found = [marker for marker in ("CalledProcessError", "TimeoutExpired", "returncode",
                                   "except OSError", "except FileNotFoundError")
             if marker in text]
    return found


@detective(NAME)
def tools(case: Case) -> list[Evidence]:
    """Process, clone and temp-dir calls in the submission's tool code."""
    index = source_index(case.workspace)
    if not index.files:
        return [no_python(NAME, "Tool code (subprocess, clone, sandbox)", index,
                          ("tools", "sandbox"))]
    calls: list[tuple[SourceFile, ToolCall]] = [(sf, c) for sf in index.files for c in _scan(sf)]
    if not calls:
        return [make(NAME, "Tool code (subprocess, clone, sandbox)", False, ".",
                     "No subprocess, os.system, clone or tempfile call in "
                     f"{len(index.files)} Python files.", 0.8, (*TAGS, "missing"))]
    out = []
    for sf, call in calls[:24]:
        handling = _error_handling(sf)
        out.append(make(NAME, f"Tool call: {call.kind}", True, call.location,
                        f"Found {call.kind}; error handling in the same file: "
                        f"{', '.join(handling) or 'none found'}.", 0.9, TAGS,
                        content=call.excerpt))
    sandboxed = [c for _sf, c in calls if c.kind.startswith("tempfile.")]
    out.append(make(NAME, "Work isolated in a temporary directory", bool(sandboxed),
                    sandboxed[0].location if sandboxed else calls[0][1].location,
                    "tempfile.TemporaryDirectory/mkdtemp used" if sandboxed else
                    "Processes run but no tempfile-based isolation was found.", 0.8,
                    TAGS if sandboxed else (*TAGS, "missing")))
    return out
