"""Fixture builders: tests make their own repositories and PDFs instead of copying blobs."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Commit:
    """One commit to make: files to write (None deletes), a message, an author and a time."""

    message: str
    files: Mapping[str, str | bytes | None] = field(default_factory=dict)
    author: str = "Ada Student"
    email: str = "ada@example.com"
    #: ISO date; default spreads commits one hour apart from a fixed day.
    date: str | None = None


def _git(repo: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    full_env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo), **(env or {})}
    out = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=full_env
    )
    return out.stdout.strip()


def make_repo(
    root: Path,
    commits: Sequence[Commit | str] = (),
    files: Mapping[str, str | bytes | None] | None = None,
) -> Path:
    """Create a git repository at ``root`` with the given commits.

    ``files`` alone makes a single commit. A plain string in ``commits`` is a message
    for an empty-ish commit touching ``NOTES.md``.
    """
    root.mkdir(parents=True, exist_ok=True)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Fixture")
    _git(root, "config", "user.email", "fixture@example.com")
    _git(root, "config", "commit.gpgsign", "false")
    todo: list[Commit] = [
        c if isinstance(c, Commit) else Commit(c, {"NOTES.md": c + "\n"}) for c in commits
    ]
    if files is not None:
        todo.append(Commit("Initial commit", files))
    for index, commit in enumerate(todo):
        for rel, content in commit.files.items():
            path = root / rel
            if content is None:
                path.unlink(missing_ok=True)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        _git(root, "add", "-A")
        date = commit.date or f"2026-02-{1 + index // 24:02d}T{index % 24:02d}:00:00+00:00"
        env = {
            "GIT_AUTHOR_NAME": commit.author,
            "GIT_AUTHOR_EMAIL": commit.email,
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_NAME": commit.author,
            "GIT_COMMITTER_EMAIL": commit.email,
            "GIT_COMMITTER_DATE": date,
        }
        _git(root, "commit", "-q", "--allow-empty", "-m", commit.message, env=env)
    return root


def head_sha(repo: Path, rev: str = "HEAD") -> str:
    """The full sha of HEAD (or of another revision, e.g. ``HEAD~1``)."""
    return _git(repo, "rev-parse", rev)


def make_pdf(
    path: Path,
    pages: Sequence[str],
    *,
    diagram_on: Sequence[int] = (),
    diagram_labels: Sequence[str] = ("detectives", "judges", "chief_justice"),
    image_on: Sequence[int] = (),
    encrypt: str | None = None,
) -> Path:
    """Write a text PDF with reportlab: one string per page (blank lines split paragraphs).

    ``diagram_on`` draws a vector fan-out/fan-in diagram (boxes, arrows, labels) on those
    0-based pages; ``image_on`` embeds a small raster image; ``encrypt`` sets a user password.
    """
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    path.parent.mkdir(parents=True, exist_ok=True)
    kwargs = {"encrypt": encrypt} if encrypt else {}
    pdf = canvas.Canvas(str(path), pagesize=A4, **kwargs)
    _width, height = A4
    for number, text in enumerate(pages):
        y = height - 60
        for line in text.split("\n"):
            pdf.drawString(50, y, line)
            y -= 16
            if y < 60:
                break
        if number in diagram_on:
            _draw_diagram(pdf, list(diagram_labels), y - 40)
        if number in image_on:
            pdf.drawImage(ImageReader(_tiny_png()), 50, 80, width=80, height=80)
        pdf.showPage()
    pdf.save()
    return path


def _draw_diagram(pdf: object, labels: list[str], top: float) -> None:
    c = pdf  # reportlab canvas; typed loosely to keep reportlab optional at import
    start_x, box_w, box_h = 60.0, 120.0, 30.0
    c.rect(start_x, top, box_w, box_h)  # type: ignore[attr-defined]
    c.drawString(start_x + 8, top + 10, "START")  # type: ignore[attr-defined]
    for i, label in enumerate(labels):
        x = start_x + 150 + (i % 3) * 130
        y = top - 60 - (i // 3) * 50
        c.rect(x, y, box_w, box_h)  # type: ignore[attr-defined]
        c.drawString(x + 8, y + 10, label)  # type: ignore[attr-defined]
        c.line(start_x + box_w, top + box_h / 2, x, y + box_h / 2)  # type: ignore[attr-defined]


def _tiny_png() -> object:
    import io
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    raw = b"".join(b"\x00" + bytes([200, 30, 30]) * 8 for _ in range(8))
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    return io.BytesIO(png)


class FakeBackend:
    """What every test backend shares: the Backend protocol's attributes, Claude-like.

    Cacheable and free, with no model: a fake stands in for a network backend.
    """

    model: str | None = None
    api_version: str | None = None
    cacheable = True

    def estimate_usd(self, request: object, output_tokens: int | None = None) -> float | None:
        return None


def outside_folder(tmp_path: Path) -> Path:
    """A folder outside the audit's output, holding one file that must never change."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not ours")
    return outside


def untouched(outside: Path) -> bool:
    """Whether ``outside_folder`` still holds exactly its one file, unchanged."""
    return [p.name for p in outside.iterdir()] == ["keep.txt"] and (
        outside / "keep.txt").read_text() == "not ours"


def flask_shell_route(*routes: str) -> str:
    """A Flask service whose one route hands a query parameter to a shell (a confirmed
    injection at line 10), followed by ``routes``, each a further route's code."""
    head = ("import subprocess\nfrom flask import Flask, request\n\napp = Flask(__name__)\n\n\n"
            '@app.route("/run")\ndef run():\n    cmd = request.args["cmd"]\n'
            "    return subprocess.check_output(cmd, shell=True)\n")
    return head + "".join(f"\n\n{route.strip()}\n" for route in routes)
