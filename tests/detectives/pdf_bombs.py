"""PDF bombs, built in the test (small on disk, huge once parsed): one page whose content
stream is compressed and holds millions of operators."""

from __future__ import annotations

import zlib
from pathlib import Path


def _pdf(content: bytes, *, extra_pages: int = 0) -> bytes:
    """A PDF whose first page draws ``content`` (Flate-compressed); extra pages hold text."""
    pages = [zlib.compress(content, 9)]
    pages += [zlib.compress(f"BT /F1 12 Tf 72 720 Td (Ordinary page {i + 2}) Tj ET".encode())
              for i in range(extra_pages)]
    objects: list[bytes] = []
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, stream in enumerate(pages):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
                       f"<< /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode())
        objects.append(f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode()
                       + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n"
            "%%EOF\n").encode()
    return bytes(out)


def text_bomb(path: Path, operators: int = 3_000_000, extra_pages: int = 0) -> Path:
    """One page of ``operators`` text-showing operators."""
    body = b"BT /F1 1 Tf 10 10 Td " + b"(x) Tj " * operators + b"ET"
    path.write_bytes(_pdf(body, extra_pages=extra_pages))
    return path


def rect_bomb(path: Path, rectangles: int = 1_500_000, extra_pages: int = 0) -> Path:
    """One page of ``rectangles`` filled rectangles."""
    body = b"0 0 1 1 re f " * rectangles
    path.write_bytes(_pdf(body, extra_pages=extra_pages))
    return path
