"""The tools detective: how the submission's own tools clone, run commands and read files.

The clone code is judged on five aspects, each a directed fact: an isolated temporary
directory that is cleaned up, commands as argument lists with no shell, command failures
checked, the URL validated before use, and authentication failures reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from courtroom.detectives.base import AUTOMATON_AUDITOR, Case, declares, detective
from courtroom.detectives.common import REPO, is_test_path, make
from courtroom.detectives.nodes import call_arguments, enclosing, node_text
from courtroom.detectives.parsing import Node, SourceFile, matches, source_index
from courtroom.detectives.repo.judge_code_facts import code_text
from courtroom.detectives.repo.source import no_python
from courtroom.models import Evidence
from courtroom.untrusted import clip

NAME = "tools"
TAGS = (REPO, "tools", "sandbox")
#: What a subprocess call's command is: an argument list, a shell-style string, or a value
#: the detective cannot resolve (never called a string: that would be a claim unproven).
Form = Literal["list", "program", "string", "unknown"]


@dataclass(frozen=True)
class ToolCall:
    """One located process or sandbox call."""

    kind: str
    location: str
    excerpt: str
    shell: bool = False
    form: Form = "list"


_SUBPROCESS = {"run", "Popen", "call", "check_call", "check_output"}
_TEMP = {"TemporaryDirectory", "mkdtemp", "NamedTemporaryFile", "TemporaryFile", "mkstemp"}
_CHECKED = re.compile(r"check\s*=\s*true|returncode|calledprocesserror|gitcommanderror|"
                      r"timeoutexpired|check_call|check_output")
_URL_CHECK = re.compile(r"def \w*valid\w*url|def \w*url\w*valid|valid\w*_url\s*\(|"
                        r"url\w*_valid\w*\s*\(|urlparse\s*\(|allowed_(?:domain|host)|"
                        r"re\.(?:match|fullmatch|compile)\s*\(\s*r?['\"][^'\"\n]*(?:https?|github)")
_AUTH = re.compile(r"authenticat|auth_?error|credential|permission denied|could not read "
                   r"username|terminal_?prompt|\b40[13]\b")


_LIST_TYPE = r"(?:list|List|Sequence|tuple|Tuple)\b"


def _form(sf: SourceFile, arg: Node) -> Form:
    """``"list"``, ``"string"`` or ``"unknown"`` for a command argument: a literal, a call
    of ``list(...)`` or of a function of this file annotated to return a list, or a variable
    the enclosing function assigns one of those to."""
    if arg.type in ("list", "list_comprehension"):
        return "list"
    if arg.type == "string":
        # One word names a program and nothing else: no shell ever parses it.
        return "string" if len(sf.text(arg).split()) > 1 else "program"
    if arg.type == "concatenated_string":
        return "string"
    if arg.type == "binary_operator" and any(c.type == "string" for c in arg.children):
        return "string"
    if arg.type == "call":
        return "list" if _returns_list(sf, sf.text(arg.child_by_field_name("function"))) \
            else "unknown"
    if arg.type != "identifier":
        return "unknown"
    scope = enclosing(arg, ("function_definition",)) or sf.root
    var = re.escape(sf.text(arg))
    body = sf.text(scope)
    # Assigned a list (literal or list(...)), or declared a list parameter or variable.
    # Assignments are statements of their own: "cmd=[...]" inside a call is a keyword.
    if (re.search(rf"^\s*{var}\s*(?::\s*list\b[^=\n]*)?=\s*(?:\[|list\s*\()", body, re.M)
            or re.search(rf"\b{var}\s*:\s*{_LIST_TYPE}", body)):
        return "list"
    called = re.search(rf"^\s*{var}\s*=\s*([A-Za-z_][\w.]*)\s*\(", body, re.M)
    if called and _returns_list(sf, called.group(1)):
        return "list"
    if re.search(rf"^\s*{var}\s*(?::\s*str\b[^=\n]*)?=\s*[rRfFbBuU]{{0,2}}['\"]", body, re.M):
        return "string"
    return "unknown"


def _returns_list(sf: SourceFile, function: str) -> bool:
    """Whether ``function`` is ``list`` or defined in this file with a list return type."""
    name = function.rsplit(".", 1)[-1]
    if function == "list":
        return True
    return bool(re.search(rf"def {re.escape(name)}\s*\([^)]*\)\s*->\s*"
                          rf"(?:Optional\[)?\s*{_LIST_TYPE}", sf.text(sf.root), re.S))


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
            form = _form(sf, positional[0]) if positional else "unknown"
            what = {"list": "an argument list", "string": "a command string"}.get(
                form, "a command the detective could not resolve")
            out.append(ToolCall(f"subprocess.{name} with {what}" + (", shell=True" if shell
                                                                    else ""),
                                sf.loc(call), excerpt, shell, form))
        elif obj == "os" and name in ("system", "popen"):
            out.append(ToolCall(f"os.{name} (shell string)", sf.loc(call), excerpt, True,
                                "string"))
        elif name in _TEMP:
            out.append(ToolCall(f"tempfile.{name}", sf.loc(call), excerpt))
        elif name == "clone_from":
            out.append(ToolCall("GitPython Repo.clone_from", sf.loc(call), excerpt))
    return out


_CLONE = re.compile(r"['\"]clone['\"]|clone_from\s*\(|git clone")


def _clones(sf: SourceFile) -> bool:
    """Whether a file's code clones a repository (a git clone argument or clone_from)."""
    return not is_test_path(sf.path) and bool(_CLONE.search(code_text(sf)))


def _aspect(goal: str, ok: bool, where: str, held: str, failed: str, conf: float = 0.8,
            content: str | None = None, seen: bool = False, fix: str | None = None) -> Evidence:
    """One clone aspect: it holds (supports) or it does not (adverse, with its fix).
    ``seen``: the failure is a defect found in the code, not a missing safeguard."""
    return make(NAME, goal, ok or seen, where, held if ok else failed, conf,
                TAGS if ok else (*TAGS, "missing"), content=content,
                direction="supports" if ok else "adverse", fix=None if ok else fix)


def _sandbox(texts: dict[str, str], calls: list[tuple[SourceFile, ToolCall]],
             where: str) -> Evidence:
    """A temporary directory that is removed again (TemporaryDirectory, or mkdtemp + rmtree)."""
    goal = "Clone isolated in a temporary directory that is cleaned up"
    temp = [(sf, c) for sf, c in calls if c.kind.startswith("tempfile.")]
    managed = [c for _sf, c in temp if "TemporaryDirectory" in c.kind]
    cleaned = [c for sf, c in temp if "rmtree" in texts.get(sf.path, "")]
    if managed or cleaned:
        c = (managed or cleaned)[0]
        return _aspect(goal, True, c.location, f"{c.kind} with cleanup "
                       f"({'context manager' if managed else 'shutil.rmtree in the same file'}).",
                       "", content=c.excerpt)
    if temp:
        c = temp[0][1]
        return _aspect(goal, False, c.location, "", f"{c.kind} creates the clone directory "
                       "but nothing in that file removes it, so every audit leaves a copy "
                       "behind.", content=c.excerpt, seen=True,
                       fix="use tempfile.TemporaryDirectory() as a context manager.")
    return _aspect(goal, False, where, "", "No tempfile-based isolation for the clone.",
                   fix="clone into tempfile.TemporaryDirectory().")


def _commands(calls: list[ToolCall], where: str) -> Evidence:
    """Whether commands run as argument lists, without a shell."""
    # Only a shell or a proven command string is a defect: a value the detective cannot
    # resolve, run without a shell, is not shown to be injectable.
    unsafe = [c for c in calls if c.shell or c.form == "string"]
    unresolved = [c for c in calls if c.form == "unknown" and not c.shell]
    goal = "Commands run as argument lists, without a shell"
    if not any(c.kind.startswith(("subprocess.", "os.")) for c in calls):
        return make(NAME, goal, False, where, "No subprocess call, os.system or os.popen in "
                    "the code, so there is no command form to judge.", 0.8, TAGS,
                    direction="context")
    if unresolved and not unsafe:
        return make(NAME, goal, True, unresolved[0].location, "No call uses shell=True or "
                    f"os.system and no command is a string, but {len(unresolved)} call(s) "
                    "pass a command the detective could not resolve (first here), so it "
                    "cannot say they are argument lists.", 0.6, TAGS,
                    content=unresolved[0].excerpt, direction="context")
    if not unsafe:
        return _aspect(goal, True, where, "Every subprocess call passes an argument list or "
                       "a single program name, and none uses shell=True or os.system.", "")
    first = unsafe[0]
    why = ("a shell string can be injected into" if first.shell else "a command string "
           "without a shell runs as one program name, and the usual next step, shell=True, "
           "can be injected into")
    return _aspect(goal, False, first.location,
                   "", f"{first.kind}: {why}.", content=first.excerpt, seen=True,
                   fix="pass an argument list and drop shell=True / os.system.")


@detective(NAME, profile=AUTOMATON_AUDITOR, produces=declares(REPO, {
    "tools": "how the tools clone, run and read the audited repository",
    "sandbox": "whether a clone lands in a temporary folder, with argument arrays",
    "missing": "no repository tool code",
}))
def tools(case: Case) -> list[Evidence]:
    """The clone tool's sandbox, command form, error checks, URL validation, auth errors."""
    index = source_index(case.workspace)
    if not index.files:
        return [no_python(NAME, "Tool code (subprocess, clone, sandbox)", index,
                          ("tools", "sandbox"))]
    code = [sf for sf in index.files if not is_test_path(sf.path)]
    scans = {sf.path: _scan(sf) for sf in code}
    calls = [(sf, c) for sf in code for c in scans[sf.path]]
    cloning = [sf for sf in code if _clones(sf)]
    scope = cloning or code
    texts = {sf.path: code_text(sf).lower() for sf in scope}
    where = next((c.location for sf, c in calls if sf in scope), f"{scope[0].path}:1")
    out = [make(NAME, "Tool calls (subprocess, clone, sandbox)", bool(calls), where,
                f"{len(calls)} process, clone or temp-dir call(s) in {len(code)} files.", 0.9,
                TAGS, content=clip("\n".join(f"{c.location} {c.kind}: {c.excerpt}"
                                             for _sf, c in calls[:24]), 2000) or None)]
    if not cloning:
        out.append(_aspect("Repository cloning tool", False, where, "", "No code clones a "
                           "repository (git clone or Repo.clone_from).", 0.75,
                           fix="add a clone tool that runs git in a temporary directory."))
    scoped = [(sf, c) for sf, c in calls if sf in scope]
    out.append(_sandbox(texts, scoped, where))
    out.append(_commands([c for _sf, c in calls], where))
    # File by file: one string of every file would double the texts' memory on a large tree.
    def anywhere(pattern: re.Pattern[str]) -> bool:
        return any(pattern.search(t) for t in texts.values())

    out.append(_aspect("Command failures checked", anywhere(_CHECKED), where,
                       "The clone code checks failures (check=True, returncode or an except "
                       "for the command's error).", "The clone code never checks whether git "
                       "failed.", fix="pass check=True or test returncode and report stderr."))
    out.append(_aspect("Clone URL validated before use", anywhere(_URL_CHECK), where,
                       "The URL is validated (a URL parser, a pattern or an allowed-host "
                       "check) before git sees it.", "The URL goes to git unchecked.", 0.7,
                       fix="accept only https URLs of allowed hosts and reject option-like "
                       "values."))
    out.append(_aspect("Authentication failures reported", anywhere(_AUTH), where,
                       "The clone code recognises authentication failures and reports them.",
                       "A private or missing repository fails like any other error.", 0.7,
                       fix="detect authentication failures in git's stderr and report them "
                       "clearly."))
    return out
