"""The one exception tree of Courtroom, and the exit status each branch maps to.

    CourtroomError                      exit 3 unless a subclass says otherwise
    ├── UsageError                      exit 2: bad flags, bad input a user can fix
    │   ├── RubricError                 the rubric file is missing, malformed or invalid
    │   ├── TargetError                 the target path is missing or a URL is refused
    │   ├── ConfigError                 settings or action inputs are inconsistent
    │   └── DiffError                   the base of a diff is missing or the diff unreadable
    ├── WorkspaceError                  exit 2: a clone failed, a checkout is unusable
    ├── JudgeError                      one judge call failed (fallback opinion, audit goes on)
    │   ├── JudgeOutputError            the model answered something that is not an opinion
    │   └── JudgeTransportError         timeout, 429, 5xx, overloaded
    ├── SynthesisError                  exit 3: no judge could take part for a criterion
    ├── RenderError                     a template failed to render
    ├── PublishError                    GitHub refused or failed a write
    └── IntegrityError                  exit 1: a verdict's hash chain does not hold

Only the entry points (``cli.main``, ``action.main``) catch broadly; everything inside
raises one of these, ``from`` its cause.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_CRITICAL = 3


class CourtroomError(Exception):
    """Base of every error Courtroom raises on purpose."""

    exit_code: int = EXIT_CRITICAL


class UsageError(CourtroomError):
    """Input a user can fix: a flag, a path, a file."""

    exit_code = EXIT_USAGE


class RubricError(UsageError):
    """The rubric file cannot be used; the message names the file, field and problem."""


class TargetError(UsageError):
    """The audit target (path or URL) is missing or refused."""


class ConfigError(UsageError):
    """Settings, environment or action inputs are missing or inconsistent."""


class DiffError(UsageError):
    """The base commit to compare with is not in the repository, or the diff cannot be read."""


class WorkspaceError(CourtroomError):
    """The repository could not be made available for reading (clone failed, timeout)."""

    exit_code = EXIT_USAGE


class JudgeError(CourtroomError):
    """A judge call failed."""

    #: What the failed attempts cost (a JudgeUsage), when the backend knows it: failed
    #: requests are paid for too, so the bench still counts them.
    usage: object | None = None


class JudgeOutputError(JudgeError):
    """The model's answer did not validate as a judicial opinion."""


class JudgeTransportError(JudgeError):
    """The model could not be reached in time (timeout, rate limit, server error)."""


class SynthesisError(CourtroomError):
    """The chief justice cannot rule on a criterion (no participating judge)."""

    exit_code = EXIT_CRITICAL


class RenderError(CourtroomError):
    """A template could not be rendered."""


class PublishError(CourtroomError):
    """A write to GitHub failed after its retries."""


class IntegrityError(CourtroomError):
    """A verdict's integrity chain does not match its content."""

    exit_code = EXIT_FAILURE
