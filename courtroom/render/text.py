"""Neutralise untrusted text before it reaches any rendered output.

Everything shown in a report, a PR comment, a check run or a job summary that came from
the submission (file names, PDF excerpts) or from a model (arguments, remediation) is
hostile: it may try to notify people (``@user``, ``@org/team``), show remote images, carry
live links, hide text behind bidi overrides or control characters, or break our layout
with newlines and Markdown structure. :func:`neutralise` turns such text into one inert
line of Markdown; :func:`code` does the same for a value shown as a code span.

GitHub links mentions, URLs, e-mail addresses and issue references in rendered text, but
never inside code spans. So text outside code spans gets a zero-width space (written as
the entity ``&#8203;``, the way dependency bots defuse mentions) after ``@``, ``#`` or
``:`` and inside ``www.``: readers see the same characters, GitHub finds no pattern.
Code spans the text already had are kept and re-fenced, so every backtick of the result
is either inside a balanced code span or escaped, and a span can never pair with a
backtick of the text around it; inside them only ``@name`` changes (to ``＠name``), and
``<!`` and ``<?`` (to ``＜!``, ``＜?``). Outside code spans every ``<`` but one before a
space is ``&lt;``. So no untrusted text ever spells an HTML comment in the
raw Markdown, where our own hidden markers live (see ``render/state.py``).
"""

from __future__ import annotations

import re
import tempfile

#: Inserted where a pattern must be broken; an entity so the raw text stays plain ASCII.
BREAK = "&#8203;"

_ASCII_PUNCT = r"!-/:-@\[-`{-~"
_ACTIVE = re.compile(
    r"(?P<at>\\?@(?=[A-Za-z0-9]))"  # mentions, teams, e-mail addresses
    r"|(?P<ref>\\?\#(?=\d))"  # issue and pull-request references
    r"|(?P<gh>(?<![\w-])GH(?=-\d))"  # the other spelling of an issue reference
    r"|(?P<scheme>\\?:(?=\\?/\\?/))"  # scheme://
    r"|(?P<www>(?<![\w.])www(?=\\?\.))"
    # An escape pair is already inert; keep it, but "\<" would keep a raw "<" for tools.
    rf"|(?P<esc>\\(?!<)[{_ASCII_PUNCT}])"
    r"|(?P<slash>\\)"  # a lone backslash must not escape what follows the text
    r"|(?P<ent>&(?=\#?\w+;))"  # an entity could spell any of the above
    # Raw HTML (tags, comments, autolinks); only "<" before a space stays as it is: one
    # that ends the text could open markup with whatever is rendered after it.
    r"|(?P<tag><(?!\s))"
    r"|(?P<bracket>[\[\]])"  # links, images, references, definitions; our link texts
    r"|(?P<tick>`)"  # a backtick left over after code spans were taken out
    r"|(?P<pipe>\|)"
    r"|(?P<math>\$)"  # math blocks and inline math
)
#: What starts a block (quote, heading, list item, rule or fence) at the start of a line.
_LEADING = re.compile(r"^(?:>|#{1,6}(?=\s|$)|[-+*](?=\s|$)|[-*_=~]{3,}|\d{1,9}(?=[.)](?:\s|$)))")
_TICKS = re.compile(r"`+")


# Absolute scratch paths must never reach a reader: they are meaningless off the runner
# and can reveal machine layout. Repo-relative paths are kept as they are.
_SCRATCH = (
    "/tmp",  # noqa: S108 - a pattern to hide, not a place we write to
    "/var/folders",
    "/private/var/folders",
    "/github/workspace",
    "/home/runner/work",
)
_TEMP_ROOTS = sorted({tempfile.gettempdir(), *_SCRATCH}, key=len, reverse=True)
_TEMP_PATH = re.compile(
    "(?:" + "|".join(re.escape(r) for r in _TEMP_ROOTS) + r")(?:/[^\s:)\]`'\"<>|]+)+"
)


# A runner's checkout root: what follows it is already the repo-relative path.
_WORKSPACE = re.compile(r"(?:/github/workspace|/home/runner/work/[^/\s]+/[^/\s]+)/(?=[^\s/])")


def scrub(text: str) -> str:
    """Make runner paths repo-relative; shorten other scratch paths to their last part."""
    text = _WORKSPACE.sub("", text)
    return _TEMP_PATH.sub(lambda m: "…/" + m.group(0).rstrip("/").rsplit("/", 1)[-1], text)


def printable(text: str, keep: str = "") -> str:
    """Drop control, format (bidi, zero-width) and unpaired surrogate characters.

    Whitespace other than a space becomes a space, except the characters in ``keep``.
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch in keep else (" " if ch.isspace() else "") for ch in text
    )


def md_line(text: str) -> str:
    """Printable characters only, every run of whitespace one space, no edges."""
    return re.sub(r"\s+", " ", printable(str(text))).strip()


#: "@" before a name inside a code span: shown as the full-width "＠" (entities are not
#: decoded in code), because a plain-text copy of the comment (an e-mail reply quotes
#: one) would otherwise mention the name.
_CODE_AT = re.compile(r"@(?=[A-Za-z0-9])")
#: "<" that opens an HTML comment, declaration or processing instruction inside a code
#: span: shown as the full-width "＜". The page would show it as text anyway, but the raw
#: body is what tools read, and our own hidden state is an HTML comment: no value, however
#: it is shown, may spell one. ``List<str>`` and ``a < b`` keep their "<".
_CODE_MARKUP = re.compile(r"<(?=[!?])")


def fence(content: str) -> str:
    """``content`` as one code span whose fence no backtick inside can close."""
    content = _CODE_MARKUP.sub("\uff1c", _CODE_AT.sub("\uff20", content))
    longest = max((len(run) for run in _TICKS.findall(content)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if content.startswith("`") or content.endswith("`") or not content.strip() else ""
    return f"{ticks}{pad}{content}{pad}{ticks}"


def _defuse(segment: str, cell: bool) -> str:
    def swap(m: re.Match[str]) -> str:
        kind, raw = m.lastgroup, m.group(0)
        if kind == "at":
            return "@" + BREAK
        if kind == "ref":
            return "#" + BREAK
        if kind == "scheme":
            return ":" + BREAK
        if kind == "www":
            return "ww" + BREAK + "w"
        if kind == "gh":
            return "GH" + BREAK
        if kind == "esc":
            return raw
        if kind == "slash":
            return "\\\\"
        if kind == "ent":
            return "&amp;"
        if kind == "tag":
            return "&lt;"
        if kind == "pipe":
            return "\\|" if cell else "|"
        return "\\" + raw  # bracket, tick, math

    return _ACTIVE.sub(swap, segment)


def _spans(text: str) -> list[tuple[bool, str]]:
    """Split into (is_code, part) the way CommonMark finds code spans."""
    parts: list[tuple[bool, str]] = []
    start = i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2  # an escaped character never opens a span
            continue
        if text[i] != "`":
            i += 1
            continue
        run = _TICKS.match(text, i)
        assert run is not None
        closing = next(
            (m for m in _TICKS.finditer(text, run.end()) if len(m.group(0)) == len(run.group(0))),
            None,
        )
        if closing is None:
            i = run.end()  # unmatched: literal backticks, escaped later
            continue
        parts.append((False, text[start:i]))
        parts.append((True, text[run.end() : closing.start()]))
        start = i = closing.end()
    parts.append((False, text[start:]))
    return [p for p in parts if p[1]]


def neutralise(text: object, limit: int | None = None, *, cell: bool = False) -> str:
    """Untrusted text as one inert line of Markdown, clipped to ``limit`` characters first.

    No mention, issue reference, link, image, URL, raw HTML, control or bidi character
    survives; ``cell`` also escapes table pipes.
    """
    # Invisible characters go before paths are found (they could hide one), and paths go
    # before defusing (removing a runner's checkout root could join "@" to a name).
    line = scrub(md_line(str(text)))
    if limit is not None and len(line) > limit:
        line = line[: max(0, limit - 1)].rstrip() + "…"
    out = []
    for is_code, part in _spans(line):
        if is_code:
            inner = part.replace("|", "\\|") if cell else part
            out.append(fence(inner.strip() if inner.strip() else inner))
        else:
            out.append(_defuse(part, cell))
    result = "".join(out)
    lead = _LEADING.match(result)
    if lead is None:
        return result
    if lead.group(0).isdigit():  # "1." starts a list: escape the dot, not the digit
        return result[: lead.end()] + "\\" + result[lead.end() :]
    return "\\" + result


def code(value: object, *, cell: bool = True) -> str:
    """A value (a path, a location, a commit) as one code span; inert wherever it lands."""
    text = scrub(md_line(str(value)))
    if re.fullmatch(r"[0-9a-f]{40}", text):
        text = text[:12]  # a commit: the short form is what people paste and search
    return fence(text.replace("|", "\\|") if cell else text)


def anchor(value: object) -> str:
    """An identifier safe inside an HTML attribute and a Markdown link target."""
    return re.sub(r"[^A-Za-z0-9_-]", "", str(value))[:80] or "x"
