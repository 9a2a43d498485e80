"""The security detective reads the templates a view renders and the dependency files,
from the audited tree."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_repo

from courtroom.detectives.security.detective import security
from detectives.conftest import OpenCase

VIEW = ("from flask import Flask, request, render_template\napp = Flask(__name__)\n\n\n"
        "@app.route('/n')\ndef note():\n"
        "    return render_template('note.html', body=request.args['b'])\n")


@pytest.mark.parametrize(("template", "confirmed"), [
    ("<div>{{ body|safe }}</div>\n", ["app/views.py:7"]),
    ("<div>{{ body }}</div>\n", []),
])
def test_a_template_printing_request_data_unescaped_is_confirmed_xss(
        tmp_path: Path, open_case: OpenCase, template: str, confirmed: list[str]) -> None:
    repo = make_repo(tmp_path / "r", files={"app/views.py": VIEW,
                                             "app/templates/note.html": template})
    found = [e for e in security(open_case(repo)).evidence if "security" in e.tags]
    assert [e.location for e in found] == confirmed
    assert all("cross-site scripting" in e.goal.lower() for e in found)


XML = ("from flask import Flask, request\nfrom lxml import etree\napp = Flask(__name__)\n\n\n"
       "@app.route('/x', methods=['POST'])\ndef upload():\n"
       "    etree.fromstring(request.get_data())\n    return 'ok'\n")


@pytest.mark.parametrize(("pin", "confirmed"), [
    ("lxml==4.9.3\n", ["app/views.py:8"]),
    ("lxml==5.2.1\n", []),
])
def test_the_lxml_the_dependency_files_pin_decides_its_default_parser(
        tmp_path: Path, open_case: OpenCase, pin: str, confirmed: list[str]) -> None:
    repo = make_repo(tmp_path / "r", files={"app/views.py": XML, "requirements.txt": pin})
    found = [e for e in security(open_case(repo)).evidence if "security" in e.tags]
    assert [e.location for e in found] == confirmed
