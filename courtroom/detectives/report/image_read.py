"""Read a report's embedded images as diagrams, offline, in a child process with limits.

The pixels come from the PDF parser's child (decoded there within bounds); OCR and shape
analysis run in another child (``image_worker.py``) under a deadline and a memory limit,
since an image is as hostile as the PDF around it. Each distinct image is read once per
process, however many times a report or a criterion cites it. Without the optional
engines (the ``vision`` extra) nothing is guessed: every image says it was not read,
why, and the command that installs them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from courtroom.child import child_env, python_file, run
from courtroom.detectives.report import image_worker
from courtroom.detectives.report.diagram_graph import Drawing
from courtroom.detectives.report.pdf_read import Picture

INSTALL = "pip install 'courtroom[vision]'"
#: The modules the reader needs, as Python imports them (the vision extra installs them).
ENGINES = ("rapidocr", "onnxruntime", "cv2")
#: Wall-clock seconds for reading every image of one report; memory of the reading child.
IMAGE_SECONDS = 60.0
IMAGE_MEMORY_BYTES = 2048 << 20
#: What the reader may print: one line of boxes and arrows per image is a few kilobytes.
MAX_ANSWER_BYTES = 8 << 20


@dataclass(frozen=True)
class ImageReading:
    """What one image showed, or why it was not read (``problem``)."""

    drawing: Drawing | None = None
    kinds: list[str] = field(default_factory=list)  # one per node: box | decision | rounded
    words: int = 0
    problem: str | None = None


_cache: dict[str, ImageReading] = {}
_lock = threading.Lock()


def engines_missing() -> str | None:
    """The first engine module that is not installed, if any."""
    for module in ENGINES:
        if importlib.util.find_spec(module) is None:
            return module
    return None


def _reading(record: dict[str, Any]) -> ImageReading:
    """A worker line as an ImageReading; a malformed line reads as a problem."""
    if "problem" in record:
        return ImageReading(problem=str(record["problem"]))
    try:
        nodes = [(str(n[0]), str(n[1])) for n in record["nodes"]]
        edges = {(int(a), int(b)) for a, b in record["edges"]
                 if 0 <= int(a) < len(nodes) and 0 <= int(b) < len(nodes)}
        words = int(record["words"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return ImageReading(problem=f"the image reader's answer was malformed ({exc!r:.60})")
    return ImageReading(Drawing([label for label, _ in nodes], edges),
                        [kind for _, kind in nodes], words)


def _run(pngs: list[bytes]) -> list[ImageReading]:
    """Read images in one child; what it did not finish says which limit stopped it."""
    with tempfile.TemporaryDirectory(prefix="courtroom-img-") as tmp:
        paths = []
        for n, png in enumerate(pngs):
            paths.append(str(Path(tmp) / f"{n}.png"))
            Path(paths[-1]).write_bytes(png)
        # Isolated (-I: only installed packages import), from the private directory, with
        # an allowlisted environment: no key or token can reach the reader.
        cmd = python_file(image_worker.__file__, f"{IMAGE_SECONDS:.0f}",
                          str(IMAGE_MEMORY_BYTES), *paths)
        try:
            done = run(cmd, child_env(), timeout=IMAGE_SECONDS, max_bytes=MAX_ANSWER_BYTES)
        except OSError as exc:
            return [ImageReading(problem=f"the image reader could not be started "
                                         f"({exc.strerror})")] * len(pngs)
        out = done.output
        stopped = {"time": f"the {IMAGE_SECONDS:g} s limit", "output": "its output cap",
                   None: f"exit {done.returncode}" if done.returncode else "an early end"
                   }[done.stopped]
    return _collect(out.decode("utf-8", "replace"), len(pngs), stopped)


def _collect(out: str, count: int, stopped: str) -> list[ImageReading]:
    """Each image's reading from the worker's lines; one without a line was cut short."""
    readings = [ImageReading(problem=f"the image reader stopped before this image "
                                     f"({stopped})")] * count
    for line in out.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue  # the line being written when the process was stopped
        if not isinstance(record, dict):
            continue
        if "missing" in record:
            return [_missing(str(record["missing"]))] * count
        index = record.get("index")
        if isinstance(index, int) and 0 <= index < count:
            readings[index] = _reading(record)
    return readings


def _missing(module: str) -> ImageReading:
    return ImageReading(problem=f"the offline image reader is not installed (no module "
                                f"'{module}'); install it with: {INSTALL}")


def read_pictures(pictures: list[Picture]) -> list[ImageReading]:
    """One reading per picture, in order; each distinct image is read once."""
    missing = engines_missing()
    if missing is not None:
        return [_missing(missing)] * len(pictures)
    keys = [hashlib.sha256(p.png).hexdigest() for p in pictures]
    with _lock:
        known = {k: _cache[k] for k in keys if k in _cache}
        todo = list(dict.fromkeys(k for k in keys if k not in known))
        if todo:
            pngs = {k: p.png for k, p in zip(keys, pictures, strict=True)}
            known.update(zip(todo, _run([pngs[k] for k in todo]), strict=True))
            _cache.update(known)
            while len(_cache) > 64:
                _cache.pop(next(iter(_cache)))
    return [known[k] for k in keys]
