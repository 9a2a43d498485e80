"""The `courtroom audit` command: flags + config file -> AuditConfig -> pipeline -> summary."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from courtroom import diff
from courtroom.detectives import open_workspace
from courtroom.detectives.contract import load_checked
from courtroom.errors import TargetError, UsageError
from courtroom.pipeline import Progress, audit
from courtroom.render.files import check_folder
from courtroom.settings.config import AuditConfig, default_out_dir, env_api_key
from courtroom.settings.effective import effective_config
from courtroom.settings.schema import flag_values
from courtroom.trace import Trace
from courtroom.untrusted import log_line


def given_from_args(args: argparse.Namespace, env: Mapping[str, str]) -> dict[str, Any]:
    """What the flags set, as AuditConfig fields (None: not set, the config file may)."""
    target = str(args.target)
    if "://" not in target and not target.startswith("git@") and not Path(target).exists():
        raise TargetError(f"target not found: {target}")
    return {
        **flag_values(args, "audit"),
        "target": target,
        "out_dir": _out_dir(args.out, target),
        "api_key": env_api_key(env),
        "base_url": env.get("ANTHROPIC_BASE_URL") or None,
        "display_name": args.name,
    }


def _out_dir(given: Path | None, target: str) -> Path:
    """The output folder, absolute but not resolved: a link on the way is refused, not
    followed. Below the working folder or a local target (the audited author's files, the
    default ``audit/...`` folder among them) every folder on the way is checked; elsewhere,
    the one the user named, only the output folder itself."""
    out = Path(os.path.abspath(given or default_out_dir(target)))
    local = [Path(os.path.abspath(target))] if Path(target).exists() else []
    roots = [root for root in (Path.cwd(), *local) if out.is_relative_to(root) and out != root]
    root = min(roots, key=lambda path: len(path.parts), default=out.parent)
    check_folder(out, root)
    return _writable(out)


def _writable(out: Path) -> Path:
    """The output folder, if it can be made: a bad --out is a usage error before any work
    (nothing is created yet: an audit that stops on bad input leaves no folder behind)."""
    existing = next((p for p in (out, *out.parents) if p.exists()), None)
    if existing is None or not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write the report to {out}: {existing} is not a writable folder")
    return out


@contextmanager
def prepared(args: argparse.Namespace, env: Mapping[str, str]) -> Iterator[AuditConfig]:
    """Check out the target once (a URL is cloned here), read its config, yield the settings."""
    given = given_from_args(args, env)
    if given["rubric_path"] is not None:  # a bad rubric stops before any clone (exit 2)
        load_checked(given["rubric_path"])
    timeout = given["clone_timeout"] or AuditConfig.model_fields["clone_timeout"].default
    with open_workspace(given["target"], timeout=timeout) as workspace:
        local = {
            **given,
            "target": str(workspace.root),
            "display_name": given["display_name"] or workspace.display,
            "commit": workspace.commit,
            # A base the repository does not hold stops the audit here, before any work.
            "base": diff.resolve(workspace.root, given["base"]) if given["base"] else None,
        }
        yield effective_config(
            local, workspace.root, config_file=args.config, pdf_base=Path.cwd(), env=env
        )


def _progress(quiet: bool) -> tuple[Progress, object | None]:
    """A rich progress display on a terminal, plain stage lines elsewhere, or nothing."""
    if quiet:
        return (lambda stage, done, total: None), None
    if sys.stderr.isatty():
        from rich.progress import BarColumn, TaskID, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        display = RichProgress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
            transient=True,
        )
        tasks: dict[str, TaskID] = {}

        def draw(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = display.add_task(stage, total=total)
            display.update(tasks[stage], completed=done, total=total)

        display.start()
        return draw, display
    seen: set[str] = set()

    def log(stage: str, done: int, total: int) -> None:
        if done == total and stage not in seen:
            seen.add(stage)
            print(f"courtroom: {stage} done ({total})", file=sys.stderr)

    return log, None


def audit_command(args: argparse.Namespace) -> int:
    """Run `courtroom audit` and print where the report went."""
    with prepared(args, os.environ) as config:
        label: str = config.judges
        if config.judges == "anthropic":
            label += f" ({config.provider}, {config.model or 'default model'})"
        print(f"courtroom: judges: {label}", file=sys.stderr)
        progress, display = _progress(args.quiet)
        try:
            outcome = audit(config, trace=Trace(), progress=progress)
        finally:
            if display is not None:
                display.stop()  # type: ignore[attr-defined]
    if outcome.verdict is None:
        where = outcome.paths.get("partial")
        print(f"courtroom: {outcome.error}; partial state in {where}", file=sys.stderr)
        return outcome.exit_code
    verdict = outcome.verdict
    print(
        f"courtroom: score {verdict.overall_score:.2f}/5, conclusion {verdict.conclusion}, "
        f"report {outcome.paths['report']}",
        file=sys.stderr,
    )
    for error in verdict.errors:  # errors quote the submission: one line each
        print(f"courtroom: note: {log_line(error)}", file=sys.stderr)
    held = verdict.security.findings if verdict.security and verdict.security.baseline else []
    for f in held:
        if f.confirmed and f.baseline == "new":
            print(f"courtroom: new confirmed finding: {log_line(f'{f.path}:{f.line}: {f.name}')}",
                  file=sys.stderr)
    return outcome.exit_code
