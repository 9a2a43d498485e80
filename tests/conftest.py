"""Suite-wide isolation: the opinion cache defaults to the user's cache folder, so each
test gets its own (outside every tree a test audits) instead of sharing ~/.cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_cache_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
