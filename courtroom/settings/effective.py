"""The effective settings of one audit: flags and action inputs, then a config file, then defaults.

The audited tree's ``.github/courtroom.yml`` is written by whoever writes the pull request,
so it may fill in what the workflow left open but never loosen what the workflow set:

- the gate only tightens: ``fail-below`` is the stricter of the flag and the file, and
  per-criterion minimums (``gate``) combine by taking the higher of each;
- once the workflow has set ``fail-below``, the file cannot change how the score is
  measured (rubric, judges, provider, model, budget, judge timeout);
- ``rubric`` and ``pdf`` name files inside the tree, never through ``..`` or a symlink;
- its ``ignore`` globs hide any file but Python source, which the security scan always reads;
- it cannot choose where the opinion cache lives (never inside the audited tree).

An audit of a pull request reads the file, and a rubric inside the tree, as the PR's base
commit has them (:mod:`courtroom.settings.base_commit`): the same rules, but the PR's
author no longer writes them; when that cannot be known, the audit's conclusion is failure
(``fail_closed``). ``--config FILE`` (the operator's own file) replaces the tree's file and
is trusted.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from courtroom.errors import ConfigError
from courtroom.models import ConfigOrigin, RubricOrigin, SettingsSource
from courtroom.resources import bundled_rubrics
from courtroom.rubric import default_rubric_path, load_rubric
from courtroom.settings.base_commit import FETCH_BASE, ChosenFile, PullBase, pull_file
from courtroom.settings.config import AuditConfig, choose_judges
from courtroom.settings.config_file import (
    MEASURE,
    TREE_FILE,
    FileSettings,
    load_operator_file,
    load_tree_file,
)
from courtroom.settings.paths import base_rubric_path, cache_outside, resolve_paths, tree_rubric
from courtroom.settings.schema import BY_FIELD, SETTINGS
from courtroom.untrusted import log_line

#: ``--config none``: grade the tree by the operator's flags alone, ignoring its own file.
NO_CONFIG = Path("none")
#: How the verdict's line starts when a pull request's new findings cannot be told apart.
NEW_UNKNOWN = ("conclusion failure: fail-on-findings is new, but the pull request's base "
               "commit is not there to compare with")
#: AuditConfig field -> the file key users write.
FILE_KEYS = {s.field: s.key for s in SETTINGS if s.key is not None}


def _say(line: str) -> None:
    print(f"courtroom: {log_line(line)}", file=sys.stderr)  # lines quote the tree's file


@dataclass
class Merged:
    """Flags and a file merged: the values, where each came from (as said to the user), and
    which the file decided, alone or joined with a flag's (the verdict records those)."""

    fields: dict[str, Any]
    sources: dict[str, str]
    by_file: set[str] = field(default_factory=set)
    joined: set[str] = field(default_factory=set)


def _merge(given: Mapping[str, Any], file: FileSettings | None) -> Merged:
    """Flags win; the file fills the rest; a tighten-only setting takes the stricter of
    both (the rows' trust, courtroom.settings.schema)."""
    fields = {k: v for k, v in given.items() if v is not None and v != ()}
    merged = Merged(fields, {k: "flag" for k in fields
                             if k not in ("target", "out_dir", "api_key", "base_url")})
    if file is None:
        return merged
    values, src = dict(file.values), file.source
    if not file.trusted and "ignore" in values:
        values["tree_ignore"] = values.pop("ignore")
    for key, value in values.items():
        if key not in fields:
            fields[key], merged.sources[key] = value, src
            merged.by_file.add(key)
            continue
        joined = _joined(key, fields[key], value, src)
        if joined is not None:
            fields[key], merged.sources[key] = joined
            merged.joined.add(key)
    return merged


def _joined(field: str, ours: Any, theirs: Any, src: str) -> tuple[Any, str] | None:
    """A setting both the flags and the file set: the flag's stands, but a tighten-only
    setting takes the stricter of the two and a free one may take both (globs)."""
    setting = BY_FIELD[field]
    if setting.trust == "tighten":
        return setting.value.stricter(ours, theirs, src)
    return setting.value.added(ours, theirs, src) if setting.trust == "free" else None


def _no_loosening(file: FileSettings, from_base: bool,
                  say: Callable[[str], None]) -> FileSettings:
    """Drop a tighten-only setting's value looser than its default (``fail-on-findings:
    new``) from a file the change under review could have written: only the operator,
    the workflow or the base commit may loosen the gate."""
    if file.trusted or from_base:
        return file
    loose = {s.field: s.key for s in SETTINGS if s.trust == "tighten"
             and s.field in file.values and s.value.loosens(file.values[s.field])}
    for name, key in loose.items():
        say(f"{file.source}: {key} {file.values[name]} ignored: only the workflow, "
            "--config FILE or a pull request's base commit may loosen the gate")
    if not loose:
        return file
    kept = {k: v for k, v in file.values.items() if k not in loose}
    return FileSettings(file.source, kept, trusted=False, base=file.base)


def _pull_base(fields: dict[str, Any], sources: dict[str, str], pull: PullBase) -> list[str]:
    """A pull request's base becomes the diff's; without it, failing on new findings only
    cannot be done, so the gate fails closed with the line saying how to fetch it."""
    if pull.sha is not None:
        fields["base"], sources["base"] = pull.sha, "the pull request's base commit"
        return []
    if fields.get("fail_on_findings") != "new":
        return []
    return [f"{NEW_UNKNOWN}: {pull.missing}; {FETCH_BASE} to compare with it"]


def _untrusted(
    file: FileSettings, given: Mapping[str, Any], say: Callable[[str], None]
) -> tuple[FileSettings, list[str]]:
    """Drop what the tree's file may not decide once the workflow has set the gate."""
    if file.trusted or given.get("fail_below") is None:
        return file, []
    dropped = [key for key in MEASURE if key in file.values]
    if dropped:
        names = ", ".join(FILE_KEYS[key] for key in dropped)
        say(
            f"{file.source}: {names} ignored: the workflow set the gate (fail-below), "
            "so how the score is measured is the workflow's to choose"
        )
    kept = {k: v for k, v in file.values.items() if k not in dropped}
    return FileSettings(file.source, kept, trusted=False, base=file.base), dropped


def _check_gate(fields: dict[str, Any], sources: Mapping[str, str]) -> None:
    gate = fields.get("gate")
    if not gate:
        return
    rubric = load_rubric(Path(fields.get("rubric_path") or default_rubric_path()))
    known = {d.id for d in rubric.criteria}
    unknown = sorted(set(gate) - known)
    if unknown:
        raise ConfigError(
            f"{sources.get('gate', 'gate')}: gate: unknown criterion {unknown[0]!r} "
            f"(the rubric has: {', '.join(sorted(known))})"
        )


def batch_fields(
    given: Mapping[str, Any], config_file: Path | None
) -> tuple[dict[str, Any], dict[str, str]]:
    """A batch's shared settings: flags, then the operator's ``--config FILE`` (no tree file)."""
    operator = config_file is not None and config_file != NO_CONFIG
    file = load_operator_file(config_file) if operator and config_file else None
    if file is not None and "pdf" in file.values:
        raise ConfigError(f"{file.source}: pdf: give each submission's PDF in the manifest")
    merged = _merge(given, file)
    fields, sources = merged.fields, merged.sources
    if file is not None and file.base is not None and "rubric_path" in merged.by_file:
        fields["rubric_path"] = file.base / str(fields["rubric_path"])
    _check_gate(fields, sources)
    return fields, sources


def _repo_file(
    root: Path, config_file: Path | None, trust_tree: bool, pull: PullBase | None,
    given: Mapping[str, Any],
) -> ChosenFile:
    """The config file that applies: the operator's, a pull request's base's, or the tree's."""
    if config_file == NO_CONFIG:
        return ChosenFile(None, f"{TREE_FILE} ignored (--config none)")
    if config_file is not None:
        operator = load_operator_file(config_file)
        return ChosenFile(operator, operator.source)
    if pull is not None:
        return pull_file(root, pull, tree_rubric(given, root))
    file = load_tree_file(root)
    if file is not None and trust_tree:
        file = FileSettings(file.source, file.values, trusted=True)
    return ChosenFile(file, TREE_FILE)


def _provenance(chosen: ChosenFile, config_file: Path | None, pull: PullBase | None,
                merged: Merged, root: Path, scratch: Path | None) -> SettingsSource:
    """Which settings the audited repository's own files decided, for the verdict."""
    file, fields = chosen.file, merged.fields
    config: ConfigOrigin = ("ignored" if config_file == NO_CONFIG else "operator" if config_file
              else "absent" if file is None else "base" if pull else "tree")
    rubric = Path(fields.get("rubric_path") or default_rubric_path())
    shipped = {default_rubric_path(), *bundled_rubrics().values()}
    where: RubricOrigin = ("bundled" if rubric in shipped
             else "base" if scratch is not None and rubric.is_relative_to(scratch)
             else "tree" if rubric.resolve().is_relative_to(root.resolve()) else "operator")
    decided = set() if config == "operator" else merged.by_file | merged.joined
    mine = {FILE_KEYS[key.removeprefix("tree_")] for key in decided
            if key.removeprefix("tree_") in FILE_KEYS}
    return SettingsSource(config=config, rubric=where, from_tree=sorted(mine))


def effective_config(
    given: Mapping[str, Any],
    root: Path,
    *,
    config_file: Path | None = None,
    trust_tree: bool = False,
    pdf_base: Path | None = None,
    env: Mapping[str, str] | None = None,
    say: Callable[[str], None] = _say,
    pull: PullBase | None = None,
    scratch: Path | None = None,
) -> AuditConfig:
    """The AuditConfig of an audit of the local tree ``root`` (a checkout of the target).

    ``given`` maps AuditConfig field names to what flags or action inputs set (None or
    absent: not set); it must hold ``target`` and ``out_dir``. ``config_file`` replaces
    the tree's own file (``NO_CONFIG``, ``--config none``: no file at all); ``trust_tree``
    reads the tree's file as the operator's (e.g. a push to the default branch); ``pull``
    (an audit of a pull request) reads the file from the base commit instead (see
    :mod:`courtroom.settings.base_commit`), and a rubric inside the tree as the base has it, copied
    into ``scratch``. A flag's relative ``pdf`` is looked up from ``pdf_base`` first (the
    current folder), then inside the tree; a missing PDF is said, not fatal.
    """
    env = env if env is not None else {}
    chosen = _repo_file(root, config_file, trust_tree, pull, given)
    file, dropped = chosen.file, list[str]()
    if file is not None:
        file, dropped = _untrusted(file, given, say)
        file = _no_loosening(file, pull is not None and not chosen.unknown, say)
    merged = _merge(given, file)
    fields, sources = merged.fields, merged.sources
    for key in dropped:
        sources.setdefault(key, f"default ({TREE_FILE} ignored under the workflow's gate)")
    for key, why in chosen.dropped.items():
        sources.setdefault(key, why)
    if pull is not None:
        sources["config"] = chosen.origin
        unknown = [chosen.unknown] if chosen.unknown else []
        fields["fail_closed"] = (*unknown, *_pull_base(fields, sources, pull))
    fields.setdefault("judges", choose_judges(None, env))
    sources.setdefault("judges", "default")
    # A rubric read from the base commit is resolved already: resolve_paths leaves it.
    from_base = {"rubric_path"} if base_rubric_path(fields, sources, root, pull, scratch) \
        else set()
    resolve_paths(fields, sources, file, merged.by_file - from_base, root, pdf_base, say)
    _check_gate(fields, sources)
    cache_outside(fields, root, env)
    fields["sources"] = sources
    fields["settings_source"] = _provenance(chosen, config_file, pull, merged, root, scratch)
    return _validated(fields)


def _validated(fields: dict[str, Any]) -> AuditConfig:
    try:
        return AuditConfig.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"setting {key}: {first['msg']}") from exc
