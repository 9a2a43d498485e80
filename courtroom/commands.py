"""The `courtroom audit` command: flags -> AuditConfig -> pipeline -> one summary line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from courtroom.config import AuditConfig, choose_judges, default_out_dir, env_api_key
from courtroom.errors import TargetError
from courtroom.pipeline import Progress, audit
from courtroom.trace import Trace


def config_from_args(args: argparse.Namespace, env: dict[str, str] | None = None) -> AuditConfig:
    """Build the audit settings from parsed flags and the environment."""
    env = dict(os.environ) if env is None else env
    judges = choose_judges(args.judges, env)
    target = str(args.target)
    if "://" not in target and not target.startswith("git@") and not Path(target).exists():
        raise TargetError(f"target not found: {target}")
    fields: dict[str, object] = {
        "target": target,
        "pdf": args.pdf,
        "out_dir": (args.out or default_out_dir(target)).resolve(),
        "judges": judges,
        "model": args.model,
        "api_key": env_api_key(env),
        "base_url": env.get("ANTHROPIC_BASE_URL") or None,
        "fail_below": args.fail_below,
        "use_cache": not args.no_cache,
        "court": not getattr(args, "no_court", False),
        "display_name": args.name,
    }
    if args.rubric is not None:
        fields["rubric_path"] = args.rubric
    return AuditConfig.model_validate(fields)


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
    config = config_from_args(args)
    label: str = config.judges
    if config.judges == "anthropic":
        label += f" ({config.model or 'default model'})"
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
    for error in verdict.errors:
        print(f"courtroom: note: {error}", file=sys.stderr)
    return outcome.exit_code
