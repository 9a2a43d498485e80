"""The endpoints the fake GitHub implements: just what Courtroom calls, with real shapes."""

from __future__ import annotations

import copy
import json
import re
import zlib
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fakes.github_server import FakeGitHub

Reply = tuple[int, Any, dict[str, str]]


def user(login: str) -> dict[str, Any]:
    """A Simple User; logins ending in [bot] are apps (GITHUB_TOKEN is github-actions[bot])."""
    bot = login.endswith("[bot]")
    uid = 41898282 if login == "github-actions[bot]" else zlib.crc32(login.encode()) % 10**8
    api = f"https://api.github.com/users/{login}"
    links = ("followers", "repos", "organizations", "received_events", "subscriptions")
    return {
        "login": login,
        "id": uid,
        "node_id": f"U_{uid}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
        "gravatar_id": "",
        "url": api,
        "html_url": f"https://github.com/{login}",
        **{f"{name}_url": f"{api}/{name}" for name in links},
        "following_url": f"{api}/following{{/other_user}}",
        "gists_url": f"{api}/gists{{/gist_id}}",
        "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
        "events_url": f"{api}/events{{/privacy}}",
        "type": "Bot" if bot else "User",
        "site_admin": False,
    }


APP = {  # the app behind every GITHUB_TOKEN
    "id": 15368,
    "slug": "github-actions",
    "node_id": "MDM6QXBwMTUzNjg=",
    "owner": user("github"),
    "name": "GitHub Actions",
    "description": "Automate your workflow from idea to production",
    "external_url": "https://help.github.com/en/actions",
    "html_url": "https://github.com/apps/github-actions",
    "created_at": "2018-07-30T09:30:17Z",
    "updated_at": "2019-12-10T19:04:12Z",
    "permissions": {"checks": "write", "pull_requests": "write", "metadata": "read"},
    "events": ["check_run", "pull_request"],
}


@cache
def _pull_template() -> dict[str, Any]:
    from fakes.github_server import PAYLOADS

    text = (PAYLOADS / "pull_request.synchronize.json").read_text(encoding="utf-8")
    return dict(json.loads(text)["pull_request"])


def _pull(fake: FakeGitHub, number: int) -> dict[str, Any]:
    """The documented pull request object, with this fake's number, head and base sha."""
    pull = copy.deepcopy(_pull_template())
    pull["number"] = number
    pull["url"] = f"{fake.api_url}/repos/{fake.repo}/pulls/{number}"
    pull["head"]["sha"] = fake.pulls[number]
    pull["base"]["sha"] = fake.bases.get(number, pull["base"]["sha"])
    pull["changed_files"] = len(fake.files.get(number, []))
    return pull


def _diff_entry(fake: FakeGitHub, change: dict[str, str]) -> dict[str, Any]:
    """A Diff Entry of a pull request's files: ``change`` gives filename, status, and a
    rename's previous_filename."""
    name = change["filename"]
    web = f"https://github.com/{fake.repo}"
    sha = format(zlib.crc32(name.encode()), "08x") * 5
    entry = {
        "sha": sha,
        "filename": name,
        "status": change.get("status", "modified"),
        "additions": 1,
        "deletions": 1,
        "changes": 2,
        "blob_url": f"{web}/blob/{sha}/{name}",
        "raw_url": f"{web}/raw/{sha}/{name}",
        "contents_url": f"{fake.api_url}/repos/{fake.repo}/contents/{name}?ref={sha}",
        "patch": "@@ -1 +1 @@\n-old\n+new",
    }
    if "previous_filename" in change:
        entry["previous_filename"] = change["previous_filename"]
    return entry


def _comment(fake: FakeGitHub, cid: int) -> dict[str, Any]:
    c = fake.comments[cid]
    owner_repo = fake.repo
    return {
        "id": cid,
        "node_id": f"IC_{cid}",
        "url": f"{fake.api_url}/repos/{owner_repo}/issues/comments/{cid}",
        "html_url": f"https://github.example/{owner_repo}/pull/{c['issue']}#issuecomment-{cid}",
        "issue_url": f"{fake.api_url}/repos/{owner_repo}/issues/{c['issue']}",
        "body": c["body"],
        "user": user(c.get("login", "github-actions[bot]")),
        "author_association": c.get("association", "NONE"),
        "performed_via_github_app": None,
        "created_at": "2026-11-22T06:00:00Z",
        "updated_at": "2026-11-22T06:00:00Z",
    }


def _run(fake: FakeGitHub, rid: int) -> dict[str, Any]:
    r = fake.check_runs[rid]
    output = r.get("output") or {}
    return {
        "id": rid,
        "node_id": f"CR_{rid}",
        "name": r["name"],
        "head_sha": r["head_sha"],
        "external_id": r.get("external_id"),
        "url": f"{fake.api_url}/repos/{fake.repo}/check-runs/{rid}",
        "html_url": f"https://github.example/{fake.repo}/runs/{rid}",
        "details_url": None,
        "status": r.get("status", "queued"),
        "conclusion": r.get("conclusion"),
        "started_at": "2026-11-22T06:00:00Z",
        "completed_at": "2026-11-22T06:00:01Z" if r.get("conclusion") else None,
        "output": {
            "title": output.get("title"),
            "summary": output.get("summary"),
            "text": output.get("text"),
            "annotations_count": len(r["annotations"]),
            "annotations_url": f"{fake.api_url}/repos/{fake.repo}/check-runs/{rid}/annotations",
        },
        "check_suite": {"id": 5},
        "app": APP,
        "pull_requests": [],
    }


def _page(fake: FakeGitHub, items: list[Any], query: dict[str, list[str]], path: str) -> Reply:
    per_page = min(100, int((query.get("per_page") or ["30"])[0]))
    page = int((query.get("page") or ["1"])[0])
    chunk = items[(page - 1) * per_page : page * per_page]
    headers = {}
    if page * per_page < len(items):
        headers["Link"] = f'<{fake.api_url}{path}?per_page={per_page}&page={page + 1}>; rel="next"'
    return 200, chunk, headers


def route(
    fake: FakeGitHub, method: str, path: str, body: Any, query: dict[str, list[str]]
) -> Reply:
    """Answer one request (already authenticated, validated and past injected failures)."""
    repo = re.escape(fake.repo)
    if m := re.fullmatch(rf"/repos/{repo}", path):
        return (
            200,
            {
                "id": 1,
                "full_name": fake.repo,
                "name": fake.repo.split("/")[1],
                "url": f"{fake.api_url}/repos/{fake.repo}",
            },
            {},
        )
    if method == "GET" and (m := re.fullmatch(rf"/repos/{repo}/pulls/(\d+)", path)):
        number = int(m.group(1))
        if number not in fake.pulls:
            return 404, {"message": "Not Found"}, {}
        return 200, _pull(fake, number), {}
    if method == "GET" and (m := re.fullmatch(rf"/repos/{repo}/pulls/(\d+)/files", path)):
        number = int(m.group(1))
        if number not in fake.pulls:
            return 404, {"message": "Not Found"}, {}
        # GitHub lists the first 3,000 files and no more, whatever the pull request holds.
        listed = [_diff_entry(fake, c) for c in fake.files.get(number, [])[:3000]]
        return _page(fake, listed, query, path)
    if method == "GET" and (
        m := re.fullmatch(rf"/repos/{repo}/collaborators/([^/]+)/permission", path)
    ):
        login = m.group(1)
        level = fake.permissions.get(login, "read")
        return 200, {"permission": level, "role_name": level, "user": user(login)}, {}
    if m := re.fullmatch(rf"/repos/{repo}/issues/(\d+)/comments", path):
        issue = int(m.group(1))
        if method == "GET":
            mine = [
                _comment(fake, c)
                for c in sorted(fake.comments)
                if fake.comments[c]["issue"] == issue
            ]
            return _page(fake, mine, query, path)
        cid = fake.next_id()
        fake.comments[cid] = {"issue": issue, "body": body["body"], "login": fake.login}
        return 201, _comment(fake, cid), {"Location": _comment(fake, cid)["url"]}
    if method == "PATCH" and (m := re.fullmatch(rf"/repos/{repo}/issues/comments/(\d+)", path)):
        cid = int(m.group(1))
        if cid not in fake.comments:
            return 404, {"message": "Not Found"}, {}
        fake.comments[cid]["body"] = body["body"]
        return 200, _comment(fake, cid), {}
    if method == "POST" and re.fullmatch(rf"/repos/{repo}/check-runs", path):
        rid = fake.next_id()
        output = body.get("output") or {}
        fake.check_runs[rid] = {**body, "annotations": list(output.get("annotations") or [])}
        if body.get("conclusion"):
            fake.check_runs[rid]["status"] = "completed"
        return 201, _run(fake, rid), {}
    if method == "PATCH" and (m := re.fullmatch(rf"/repos/{repo}/check-runs/(\d+)", path)):
        rid = int(m.group(1))
        run = fake.check_runs[rid]
        output = body.get("output") or {}
        run["annotations"].extend(output.get("annotations") or [])  # they append
        run["output"] = {**(run.get("output") or {}), **output}
        run.update({k: v for k, v in body.items() if k != "output"})
        return 200, _run(fake, rid), {}
    if method == "GET" and (m := re.fullmatch(rf"/repos/{repo}/commits/([^/]+)/check-runs", path)):
        name = (query.get("check_name") or [None])[0]
        runs = [
            _run(fake, r)
            for r in sorted(fake.check_runs)
            if fake.check_runs[r]["head_sha"] == m.group(1)
            and (name is None or fake.check_runs[r]["name"] == name)
        ]
        return 200, {"total_count": len(runs), "check_runs": runs}, {}
    return 404, {"message": f"fake GitHub does not implement {method} {path}"}, {}
