"""What the checkout holds: the files an input names inside it, and which commit it is.

A checkout is the pull request author's tree: a committed symlink may aim at any file on
the runner, so an input's path is read only through real folders inside the workspace.
"""

from __future__ import annotations

from pathlib import Path

from courtroom.detectives.repo.workspace import run_git
from courtroom.publish.github.event import ActionConfig


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` lies in ``root`` through real folders: no link, no ``..``, no escape.

    A committed symlink is the PR author's to aim, at any file on the runner.
    """
    try:
        relative = path.relative_to(root)
    except ValueError:
        return False
    if ".." in relative.parts:
        return False
    step = root
    for part in relative.parts:
        step = step / part
        if step.is_symlink():
            return False
    return path.resolve().is_relative_to(root.resolve())


def resolve_pdf(config: ActionConfig) -> tuple[Path | None, str | None]:
    """The PDF input as a file in the workspace, and why a match was refused (if one was).

    A glob picks its first safe match. With no match at all, the literal path is kept so
    the audit reports the PDF as not found; a match that is a link or lies outside the
    workspace is never read.
    """
    pdf: str | None = config.settings.get("pdf")
    if not pdf:
        return None, None
    root = config.workspace
    if Path(pdf).is_absolute():
        candidates = [Path(pdf)]
    elif any(ch in pdf for ch in "*?["):
        candidates = sorted(root.glob(pdf))
    else:
        candidates = [root / pdf]
    safe = [p for p in candidates if inside(root, p) and p.is_file()]
    if safe:
        return safe[0], None
    refused = [p for p in candidates if not inside(root, p)]
    if not refused:
        return root / pdf, None
    shown = refused[0].relative_to(root) if refused[0].is_relative_to(root) else refused[0]
    why = (
        f"input pdf: {shown.as_posix()} is a symbolic link or lies outside the workspace; "
        "Courtroom reads only files inside the checkout, so no PDF is audited"
    )
    return None, why


def checkout_mismatch(workspace: Path, head_sha: str) -> str | None:
    """A warning when the checkout is not the commit the results will be posted on.

    ``actions/checkout`` checks out the PR's merge commit by default; the verdict would then
    describe a tree nobody pushed. Not fatal: the workflow may have its reasons.
    """
    actual = (run_git(workspace, "rev-parse", "HEAD", timeout=10) or "").strip()
    if not actual or actual == head_sha:
        return None
    return (
        f"the workspace is at {actual[:12]}, not the PR head {head_sha[:12]}: check out "
        "`ref: ${{ github.event.pull_request.head.sha }}` to audit what was pushed"
    )
