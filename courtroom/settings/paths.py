"""Where an audit's files are: the rubric and the PDF a setting names, and the opinion cache.

Split from :mod:`courtroom.settings.effective`: a path a tree's file names stays inside the tree (no
``..``, no symlink), a pull request's rubric is read as its base commit has it, and the
opinion cache never lies inside the audited tree.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from courtroom.errors import ConfigError
from courtroom.resources import named_rubric
from courtroom.settings.base_commit import PullBase, base_rubric
from courtroom.settings.config import user_cache_dir
from courtroom.settings.config_file import FileSettings
from courtroom.tree_paths import GLOB_CHARS, PdfLookup, find_pdf, glob_in_tree, inside_tree


def _tree_path(root: Path, rel: str, source: str, key: str) -> Path:
    path = inside_tree(root, rel)
    if path is None:
        raise ConfigError(f"{source}: {key}: {rel!r} must stay inside the repository, no symlinks")
    if not path.is_file():
        raise ConfigError(f"{source}: {key}: {rel!r} is not a file in the repository")
    return path


def _pdf(value: Any, root: Path, base: Path | None) -> PdfLookup:
    text = str(value)
    if any(ch in text for ch in GLOB_CHARS):
        return PdfLookup(glob_in_tree(root, text), (root / text,))
    return find_pdf(text, base=base, root=root)


def base_rubric_path(
    fields: dict[str, Any], sources: dict[str, str], root: Path, pull: PullBase | None,
    scratch: Path | None,
) -> bool:
    """On a pull request, a rubric inside the repository is read as the base commit has it
    (True when it was: the rubric's path is then resolved)."""
    if pull is None or pull.sha is None or "rubric_path" not in fields:
        return False
    value, source = fields["rubric_path"], sources["rubric_path"]
    if isinstance(value, Path):  # a flag or input: only a path inside the tree is the PR's
        if not value.is_relative_to(root):
            return False
        value = value.relative_to(root).as_posix()
    if scratch is None:
        raise ConfigError("a pull request's rubric needs a folder outside the tree to be read")
    rubric = base_rubric(root, pull.sha, str(value), scratch, source)
    base = f"the base commit {pull.sha[:12]}"
    fields["rubric_path"] = rubric
    sources["rubric_path"] = (f"{source}; the file as {base} has it"
                              if rubric.is_relative_to(scratch)
                              else _bundled_source(source, str(value), base))
    return True


def _bundled_source(source: str, name: str, where: str) -> str:
    # Said in settings.sources: a file of that name, had there been one, would have won.
    return f"{source}; the bundled rubric {name} ({where} has no file of that name)"


def resolve_paths(
    fields: dict[str, Any],
    sources: dict[str, str],
    file: FileSettings | None,
    by_file: Collection[str],
    root: Path,
    pdf_base: Path | None,
    say: Callable[[str], None],
) -> None:
    """Resolve rubric and pdf: a file's paths (``by_file``: the fields ``file`` decided)
    from its folder (trusted) or inside the tree."""
    if file is not None and "rubric_path" in by_file:
        rel = str(fields["rubric_path"])
        trusted_base = file.base if file.trusted else None
        bundled = named_rubric(rel)
        beside = trusted_base / rel if trusted_base else inside_tree(root, rel)
        if bundled is not None and (beside is None or not beside.is_file()):
            fields["rubric_path"] = bundled
            sources["rubric_path"] = _bundled_source(file.source, rel, "the file's folder"
                                                     if trusted_base else "the repository")
        elif trusted_base:
            fields["rubric_path"] = beside
        else:
            fields["rubric_path"] = _tree_path(root, rel, file.source, "rubric")
    if "pdf" not in fields:
        return
    base = pdf_base
    if file is not None and "pdf" in by_file:
        base = file.base if file.trusted else None
    lookup = _pdf(fields["pdf"], root, base)
    if lookup.refused is not None:
        raise ConfigError(
            f"{sources.get('pdf', 'flag')}: pdf: {fields['pdf']} is a symlink (or lies behind "
            "one) inside the audited tree; refused"
        )
    if lookup.path is None:
        # Not fatal: the report detective records the missing PDF and the audit goes on.
        say(lookup.missing(fields["pdf"]))
    fields["pdf"] = lookup.path or lookup.tried[-1]


def cache_outside(fields: dict[str, Any], root: Path, env: Mapping[str, str]) -> None:
    cache = Path(fields.get("cache_dir") or user_cache_dir(env)).expanduser().resolve()
    if cache.is_relative_to(root.resolve()):
        raise ConfigError(
            f"the opinion cache {cache} lies inside the audited tree; "
            "pass --cache-dir with a folder outside it"
        )
    fields["cache_dir"] = cache


def tree_rubric(given: Mapping[str, Any], root: Path) -> str | None:
    """The rubric a flag or input names inside the tree (the PR's to edit), if any."""
    value = given.get("rubric_path")
    if isinstance(value, Path) and value.is_relative_to(root):
        return value.relative_to(root).as_posix()
    return None
