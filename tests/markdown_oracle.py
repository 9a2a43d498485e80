"""What a Markdown text would *do* when GitHub renders it, found with a CommonMark parser.

markdown-it-py (installed with ``rich``) parses the text the way GitHub's renderer does for
CommonMark; GitHub's own additions (mentions, issue references, autolinked URLs and
e-mail addresses) act on rendered text outside code, so they are looked for there.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator

from markdown_it import MarkdownIt
from markdown_it.token import Token

_PARSER = MarkdownIt("commonmark", {"html": True}).enable("table")
#: Raw HTML our templates write: folding, bold, small print, anchors and hidden comments.
_OUR_HTML = re.compile(
    r'^(?:</?(?:details|summary|b|sub)>|<a id="[A-Za-z0-9_-]+">|</a>|<!-- courtroom:[^>]*-->)$'
)
_ACTIVE_TEXT = {
    "mention": re.compile(r"(?:^|[^\w`])@[A-Za-z0-9]"),
    "issue reference": re.compile(r"(?:^|[^\w&])#\d|(?:^|[^\w-])GH-\d"),
    "url": re.compile(r"(?i)\b(?:https?|ftp)://|(?:^|[\s*_~(])www\."),
    "e-mail": re.compile(r"[\w.+-]@[A-Za-z0-9-]+\.[A-Za-z]"),
}
_ALLOWED_INVISIBLE = {"\u200b", "\ufe0f", "\u200d"}  # our pattern break; emoji joiners


def _inline(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _inline(token.children)


def _html_parts(html: str) -> list[str]:
    return [p for p in re.findall(r"<!--.*?-->|<[^>]*>", html, re.S) if p.strip()]


def _active(text: str) -> list[str]:
    return [f"{name} in {text!r}" for name, p in _ACTIVE_TEXT.items() if p.search(text)]


def live_parts(markdown: str) -> list[str]:
    """Everything in ``markdown`` that would notify, link, embed or hide; [] when inert."""
    found: list[str] = []
    for token in _inline(_PARSER.parse(markdown)):
        if token.type == "link_open":
            href = str(token.attrGet("href") or "")
            if not href.startswith("#"):
                found.append(f"link to {href}")
        elif token.type == "image":
            found.append(f"image {token.attrGet('src')}")
        elif token.type in ("html_inline", "html_block"):
            found += [f"html {p}" for p in _html_parts(token.content) if not _OUR_HTML.match(p)]
            # Text inside an HTML block is not Markdown, but GitHub still links it.
            found += _active(html.unescape(re.sub(r"<!--.*?-->|<[^>]*>", " ", token.content)))
        elif token.type == "text":
            found += _active(token.content)
        elif token.type == "code_inline" and _ACTIVE_TEXT["mention"].search(token.content):
            # Not linked on the page, but a plain-text copy (an e-mail reply) would be.
            found.append(f"mention in code {token.content!r}")
    for ch in set(markdown) - _ALLOWED_INVISIBLE - {"\n"}:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            found.append(f"invisible character U+{ord(ch):04X}")
    return found


def headings(markdown: str) -> list[str]:
    """The text of every heading, in order."""
    tokens = _PARSER.parse(markdown)
    return [
        tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"
    ]
