"""Claude's transcription of a diagram image, trusted only where the offline OCR agrees.

With Claude judges, each image the OCR read is also sent to Claude once (through the
judges' client: ``judges/vision.py``), which answers with the boxes and arrows it sees.
The picture is the audited author's, and so is any text in it that speaks to the model,
so the answer is a witness, not a fact: a transcribed box counts only when its label
matches a box label the OCR read on that image (normalised, with the usual OCR letter
slips forgiven), and a transcribed arrow only when both its ends are such boxes. The
arrows then complete the OCR's graph (a connector it missed, a direction it guessed);
boxes the OCR never read add nothing. A failed transcription leaves the OCR reading as it
was. Detectives never import the SDK: the transcriber is handed over in the ``Case``.
"""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from courtroom.detectives.report.diagram_graph import Drawing
from courtroom.detectives.report.image_read import ImageReading
from courtroom.detectives.report.pdf_read import Picture
from courtroom.errors import CourtroomError

#: Most boxes and arrows read from one answer (a diagram a reader can follow holds fewer).
MAX_BOXES, MAX_ARROWS, MAX_LABEL = 80, 160, 120
#: Similarity two normalised labels need to be the same box despite OCR slips.
AGREE = 0.85
#: Labels shorter than this (normalised) must match exactly: in a short word one letter
#: more or less is another word ("judge", "judges"), not a slip.
SHORT = 6
#: Images sent to Claude at once (each call is mostly waiting on the network).
WORKERS = 4
#: Characters OCR confuses, folded to one before comparing.
_FOLD = str.maketrans({"i": "l", "1": "l", "|": "l", "!": "l", "0": "o", "5": "s", "8": "b"})
_NOT_WORD = re.compile(r"[^a-z0-9|!]+")


class TranscribedBox(BaseModel):
    """One box Claude saw: its own id for the arrows, and the text written in it."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=MAX_LABEL)
    label: str = Field(max_length=MAX_LABEL)


class TranscribedArrow(BaseModel):
    """One arrow Claude saw, between two of its box ids."""

    model_config = ConfigDict(extra="forbid")
    source: str = Field(max_length=MAX_LABEL)
    target: str = Field(max_length=MAX_LABEL)


class Transcription(BaseModel):
    """Claude's reading of one diagram image: boxes and arrows, nothing else."""

    model_config = ConfigDict(extra="forbid")
    boxes: list[TranscribedBox] = Field(max_length=MAX_BOXES)
    arrows: list[TranscribedArrow] = Field(max_length=MAX_ARROWS)


class Transcriber(Protocol):
    """Reads one image (PNG bytes); raises a CourtroomError when it cannot."""

    def transcribe(self, png: bytes, media_type: str = "image/png") -> Transcription:
        """The boxes and arrows Claude sees in ``png``."""
        ...


@dataclass(frozen=True)
class Merged:
    """The OCR drawing completed by the agreed part of a transcription."""

    drawing: Drawing
    agreed: int  # transcribed boxes whose label the OCR read
    boxes: int  # transcribed boxes in all
    arrows: int  # transcribed arrows that joined two agreed boxes and were new

    @property
    def note(self) -> str:
        """The rationale's sentence about the transcription."""
        return (f" Claude's transcription of the image was used where the OCR agreed: "
                f"{self.agreed} of {self.boxes} transcribed boxes, {self.arrows} arrow(s) "
                "turned.")


def normalise(label: str) -> str:
    """A label as compared: lower case, letters and digits only, OCR slips folded."""
    return _NOT_WORD.sub("", label.lower()).translate(_FOLD)


def _similar(a: str, b: str) -> float:
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    if min(len(a), len(b)) < SHORT:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def _pairs(ocr: list[str], boxes: list[TranscribedBox]) -> dict[str, int]:
    """Transcribed box id -> OCR node, one to one, best agreements first."""
    seen = [normalise(label) for label in ocr]
    said = [normalise(b.label) for b in boxes]
    scored = sorted(((_similar(s, o), t, n) for t, s in enumerate(said)
                     for n, o in enumerate(seen)), key=lambda x: (-x[0], x[1], x[2]))
    taken: set[int] = set()
    out: dict[str, int] = {}
    for score, t, n in scored:
        if score < AGREE:
            break
        if n in taken or boxes[t].id in out:
            continue
        taken.add(n)
        out[boxes[t].id] = n
    return out


def merge(drawing: Drawing, transcription: Transcription) -> Merged:
    """``drawing`` (the OCR's) with its arrows turned where Claude reads them the other way.

    Claude only ever turns a connector the shape analysis found between two boxes the OCR
    read: an arrow it adds would be the image's word alone, and text in a hostile image can
    ask for arrows (a fan-out the drawing does not have). Every other OCR edge is kept.
    """
    ids = _pairs(drawing.labels, transcription.boxes)
    said = {(ids[a.source], ids[a.target]) for a in transcription.arrows
            if a.source in ids and a.target in ids and ids[a.source] != ids[a.target]}
    turned = {e for e in said if e not in drawing.edges and (e[1], e[0]) in drawing.edges}
    kept = {e for e in drawing.edges if (e[1], e[0]) not in turned}
    edges = kept | turned
    return Merged(Drawing(list(drawing.labels), edges), agreed=len(ids),
                  boxes=len({b.id for b in transcription.boxes}),
                  arrows=len(edges - drawing.edges))


def _ask(transcriber: Transcriber, png: bytes) -> Transcription | str:
    try:
        return transcriber.transcribe(png, "image/png")
    except CourtroomError as exc:
        return str(exc)


def consult(transcriber: Transcriber, pictures: list[Picture],
            readings: list[ImageReading]) -> list[Merged | str | None]:
    """Per picture: its OCR drawing merged with Claude's transcription, why there is
    none (a failure), or None when the OCR read no box label to check it against.

    Each distinct image is asked once; a merge whose boxes the OCR never read is None too.
    """
    wanted = {hashlib.sha256(p.png).hexdigest(): p.png for p, r in
              zip(pictures, readings, strict=True) if r.drawing is not None and
              r.problem is None and r.drawing.labels}
    with ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="vision") as pool:
        answers = dict(zip(wanted, pool.map(lambda png: _ask(transcriber, png),
                                            wanted.values()), strict=True))
    out: list[Merged | str | None] = []
    for picture, reading in zip(pictures, readings, strict=True):
        answer = answers.get(hashlib.sha256(picture.png).hexdigest())
        if isinstance(answer, Transcription) and reading.drawing is not None:
            merged = merge(reading.drawing, answer)
            out.append(merged if merged.agreed else None)
        else:
            out.append(answer if isinstance(answer, str) else None)
    return out
