"""Hostile text from a submission or a model does not act in any rendered output."""

from __future__ import annotations

from markdown_oracle import headings, live_parts

from render.support import hostile_verdict, outputs

HOSTILE = (
    "@octocat @acme/team &#64;admin \\@esc [x](https://evil.example) ![p](https://evil.example/p.png)"
    " <img src=x> https://evil.example www.evil.example a@evil.example #12 \u202eevil\u202c"
    " \x1b[31m\n# PWNED heading\n` @after @/github/workspace/octocat"
)


def test_hostile_text_does_not_act_in_any_output() -> None:
    for name, text in outputs(hostile_verdict(HOSTILE)).items():
        assert live_parts(text) == [], name
        assert not [h for h in headings(text) if h.startswith("PWNED")], name
        assert text.count("<details>") == text.count("</details>"), name
