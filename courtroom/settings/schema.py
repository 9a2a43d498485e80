"""The one declaration of every setting: its value, flag, action inputs, file key and trust.

Each setting is one :class:`Setting` in :data:`SETTINGS`, and everything that reads or
shows a setting reads this table: the ``courtroom audit`` and ``batch`` flags
(``add_flags`` below), the Action's inputs (:mod:`courtroom.publish.github.inputs`),
the configuration file's keys (:data:`courtroom.settings.config_file.KEYS`), what the
audited tree's own file may change (:mod:`courtroom.settings.effective`, from ``trust``)
and what ``verdict.json`` records (``AuditConfig.settings_record``). A new setting is one
row here, its ``AuditConfig`` field, and the code that uses it (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import argparse
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from courtroom.findings import FailOn
from courtroom.models import CONCURRENCY_RANGE, JUDGE_KINDS, PROVIDERS
from courtroom.settings.values import Choice, File, Gate, Globs, Number, Switch, Value

#: What the audited tree's own (untrusted) file may do with a setting:
#: "free": fill it in when the flags and inputs left it open; "tighten": only make the
#: gate stricter (a value looser than the default only from a trusted file or a pull
#: request's base commit); "measure": how the score is measured, the workflow's once it set
#: the gate; "workflow": never read from a file at all.
Trust = Literal["free", "tighten", "measure", "workflow"]


class Flag(BaseModel):
    """A setting's ``courtroom audit`` flag."""

    model_config = ConfigDict(frozen=True)

    name: str
    help: str
    metavar: str | None = None
    #: `courtroom batch` takes it too: a setting every submission shares.
    batch: bool = True


class Input(BaseModel):
    """One of a setting's Action inputs."""

    model_config = ConfigDict(frozen=True)

    name: str
    #: Read only when the provider input names this provider (a cloud's own region).
    provider: str | None = None
    #: What an empty input means (None when "").
    default: str = ""


class Setting(BaseModel):
    """One setting: the AuditConfig field and every way a user can set or see it."""

    model_config = ConfigDict(frozen=True)

    field: str  # the AuditConfig field
    value: Value = Value()
    flag: Flag | None = None
    inputs: tuple[Input, ...] = ()
    key: str | None = None  # the configuration file's key
    trust: Trust = "workflow"
    recorded: bool = True  # in verdict.json's settings


def _flag(name: str, help: str, metavar: str | None = None, *, batch: bool = True) -> Flag:
    return Flag(name=name, help=help, metavar=metavar, batch=batch)


def _in(*names: str, provider: str | None = None, default: str = "") -> tuple[Input, ...]:
    return tuple(Input(name=n, provider=provider, default=default) for n in names)


FAIL_ON: tuple[FailOn, ...] = ("all", "new")  # strictest first: "new" loosens the gate
#: The file's narrower bounds: a tree must not starve its judges into fallbacks.
JUDGE_SECONDS, SECONDS = (60.0, 3600.0), (1.0, 3600.0)

#: Every setting, in the order verdict.json records them. Paths are checked against the
#: tree later (courtroom.settings.paths), so a file's rubric and pdf are plain text here.
SETTINGS: tuple[Setting, ...] = (
    Setting(field="rubric_path", value=File(bundled=True), key="rubric", trust="measure",
            flag=_flag("--rubric", "rubric JSON, or the name of a bundled one (automaton-"
                       "auditor, ...; default: the config file's, else the bundled rubric)",
                       "PATH|NAME"), inputs=_in("rubric")),
    Setting(field="pdf", value=File(), key="pdf", trust="free", recorded=False,
            flag=_flag("--pdf", "PDF report: as given, else inside the target (default: "
                       "config file)", "PATH", batch=False), inputs=_in("pdf")),
    Setting(field="judges", value=Choice(options=JUDGE_KINDS), key="judges", trust="measure",
            flag=_flag("--judges", "judge bench (default: anthropic when ANTHROPIC_API_KEY "
                       "is set)")),
    Setting(field="model", key="model", trust="measure", inputs=_in("model"),
            flag=_flag("--model", "Claude model (default: the backend's)", "NAME")),
    Setting(field="provider", value=Choice(options=PROVIDERS), key="provider", trust="measure",
            flag=_flag("--provider", "where Claude is served from (default: anthropic)"),
            inputs=_in("provider", default="anthropic")),
    Setting(field="region", key="region", trust="measure",
            flag=_flag("--region", "bedrock or vertex region (default: AWS_REGION / "
                       "CLOUD_ML_REGION)", "REGION"),
            inputs=(*_in("aws-region", provider="bedrock"),
                    *_in("vertex-region", provider="vertex"))),
    Setting(field="project_id", key="project-id", trust="measure",
            flag=_flag("--project-id", "Google Cloud project for vertex (default: "
                       "ANTHROPIC_VERTEX_PROJECT_ID)", "ID"),
            inputs=_in("vertex-project", provider="vertex")),
    Setting(field="fail_below", value=Number(file=(0, 5), input=(0, 5)), key="fail-below",
            trust="tighten", inputs=_in("fail-below"),
            flag=_flag("--fail-below", "conclusion failure when the overall score is under "
                       "SCORE (0-5)", "SCORE")),
    Setting(field="gate", value=Gate(), key="gate", trust="tighten"),
    # A flag or input that set it wins; its flag can only set it true.
    Setting(field="fail_on_uncovered", value=Switch(), key="fail-on-uncovered",
            trust="tighten", inputs=_in("fail-on-uncovered"),
            flag=_flag("--fail-on-uncovered", "conclusion failure when a criterion is not "
                       "covered (default: neutral)")),
    Setting(field="max_cost_usd", value=Number(file=(0.01, 10_000)), key="max-cost-usd",
            trust="measure", inputs=_in("max-cost"),
            flag=_flag("--max-cost-usd", "cap on the estimated Claude spend per audit; past "
                       "it, offline judges", "N")),
    Setting(field="max_concurrency", key="max-concurrency", trust="free",
            value=Number(file=CONCURRENCY_RANGE, input=CONCURRENCY_RANGE, integer=True),
            inputs=_in("max-concurrency"),
            flag=_flag("--max-concurrency", "judge requests in flight at once per audit "
                       f"({CONCURRENCY_RANGE[0]}-{CONCURRENCY_RANGE[1]}, default: 8)", "N")),
    Setting(field="judge_timeout", value=Number(file=JUDGE_SECONDS, flag=SECONDS),
            key="judge-timeout", trust="measure", inputs=_in("judge-timeout"),
            flag=_flag("--judge-timeout", "seconds one Claude request may take (default: "
                       "600)", "S")),
    Setting(field="clone_timeout", value=Number(flag=SECONDS), inputs=_in("clone-timeout"),
            flag=_flag("--clone-timeout", "seconds a git clone may take before it is "
                       "killed (default: 180)", "S")),
    # The tree's globs never hide Python source (tree_ignore): the security scan reads it.
    Setting(field="ignore", value=Globs(), key="ignore", trust="free",
            flag=_flag("--ignore", "paths no detective reads, e.g. 'vendor/**' "
                       "(repeatable)", "GLOB")),
    # The tree's own `ignore` lands here (see AuditConfig.tree_ignore), never set directly.
    Setting(field="tree_ignore"),
    Setting(field="use_cache", value=Switch(flag_sets=False),
            flag=_flag("--no-cache", "ask the judges again instead of reusing cached "
                       "opinions")),
    Setting(field="cache_dir", value=File(), recorded=False,
            flag=_flag("--cache-dir", "opinion cache (default: $XDG_CACHE_HOME/courtroom "
                       "or ~/.cache/courtroom)", "DIR")),
    Setting(field="court", value=Switch(flag_sets=False),
            flag=_flag("--no-court", "skip the court phase", batch=False)),
    Setting(field="base", flag=_flag("--base", "compare with this commit or branch of the "
                                     "target: its diff is evidence; under --fail-on-findings "
                                     "new its security findings the baseline", "REF",
                                     batch=False)),
    Setting(field="fail_on_findings", value=Choice(options=FAIL_ON), key="fail-on-findings",
            trust="tighten", inputs=_in("fail-on-findings"),
            flag=_flag("--fail-on-findings", "fail on every confirmed finding (all, the "
                       "default) or only on those the change adds over --base (new)",
                       batch=False)),
)
#: AuditConfig field -> its row.
BY_FIELD = {s.field: s for s in SETTINGS}


def _flagged(command: str) -> list[tuple[Setting, Flag]]:
    return [(s, s.flag) for s in SETTINGS if s.flag and (command == "audit" or s.flag.batch)]


def add_flags(parser: argparse.ArgumentParser, command: str) -> None:
    """One flag per setting ``command`` takes (batch: the settings submissions share)."""
    for setting, flag in _flagged(command):
        keywords = setting.value.flag_keywords()
        if flag.metavar:
            keywords["metavar"] = flag.metavar
        parser.add_argument(flag.name, dest=setting.field, help=flag.help, **keywords)


def flag_values(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """AuditConfig fields as the flags of ``command`` set them (None: not given)."""
    return {s.field: s.value.from_flag(getattr(args, s.field)) for s, _flag in _flagged(command)}
