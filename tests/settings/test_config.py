"""AuditConfig: the user's cache folder, the ignore predicate, the per-criterion gate and
the settings record a verdict carries."""

from __future__ import annotations

from pathlib import Path

from courtroom.rubric import default_rubric_path
from courtroom.settings.config import AuditConfig, user_cache_dir


def test_the_cache_defaults_to_the_users_cache_folder() -> None:
    assert user_cache_dir({"XDG_CACHE_HOME": "/x"}) == Path("/x/courtroom")
    assert user_cache_dir({"XDG_CACHE_HOME": "relative"}) == Path.home() / ".cache/courtroom"
    assert user_cache_dir({}) == Path.home() / ".cache/courtroom"
    config = AuditConfig(target=".", out_dir=Path("/w/audit/out"))
    assert not config.resolved_cache_dir.is_relative_to("/w")


def test_tree_globs_hide_everything_but_python_source() -> None:
    config = AuditConfig(target=".", out_dir=Path("o"), ignore=("fixtures/**",),
                         tree_ignore=("src/**",))
    skip = config.skips()
    assert skip("fixtures/x.py") and skip("src/notes.md") and not skip("src/app.py")
    assert not AuditConfig(target=".", out_dir=Path("o")).skips()("anything.py")


def test_a_repository_cannot_hide_scripts_with_its_own_ignore_globs() -> None:
    config = AuditConfig(target=".", out_dir=Path("out"), tree_ignore=("bin/**", "**/*.pyw"))
    hidden = config.skips()
    assert not hidden("bin/deploy") and not hidden("tools/x.pyw") and not hidden("app.py")
    assert hidden("bin/readme.txt")


def test_the_settings_record_has_no_secret_and_no_local_path(tmp_path: Path) -> None:
    config = AuditConfig.model_validate({
        "target": str(tmp_path), "out_dir": tmp_path / "o", "api_key": "sk-secret-value",
        "base_url": "https://user:pw@proxy.example", "cache_dir": tmp_path / "c",
        "rubric_path": tmp_path / "mine.json", "model": "m",
        "sources": {"model": "flag", "rubric_path": ".github/courtroom.yml", "target": "flag"},
    })
    record = config.settings_record()
    text = repr(record)
    assert "sk-secret" not in text and "pw@" not in text and str(tmp_path) not in text
    assert record["rubric"] == "mine.json"
    assert record["sources"] == {"model": "flag", "rubric": ".github/courtroom.yml"}
    default = AuditConfig(target=".", out_dir=Path("o"), rubric_path=default_rubric_path())
    assert default.settings_record()["rubric"] == "bundled"
