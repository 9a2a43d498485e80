"""GraphQL resolvers: their arguments are the client's; the parent object and info are not."""

from __future__ import annotations

import pytest

from detectives.security.taint.apps import SINKS, assert_twins, twins

GRAPHENE = ("import graphene\n\n\nclass Query(graphene.ObjectType):\n"
            "    run = graphene.String(d=graphene.String())\n\n"
            "    def resolve_run(root, info, d):\n        SINK\n        return 'ok'\n")
GRAPHENE_MUTATION = ("import graphene\n\n\nclass Run(graphene.Mutation):\n"
                     "    ok = graphene.Boolean()\n\n"
                     "    def mutate(root, info, d):\n        SINK\n        return Run(ok=True)\n")
STRAWBERRY = ("import strawberry\n\n\n@strawberry.type\nclass Query:\n"
              "    @strawberry.field\n    def run(self, info, d: str) -> str:\n"
              "        SINK\n        return 'ok'\n")
ARIADNE = ("from ariadne import QueryType\nquery = QueryType()\n\n\n@query.field('run')\n"
           "def resolve_run(obj, info, d):\n    SINK\n    return 'ok'\n")

CASES = [
    ("graphene resolver", GRAPHENE),
    ("graphene mutation", GRAPHENE_MUTATION),
    ("strawberry field", STRAWBERRY),
    ("ariadne field", ARIADNE),
]


@pytest.mark.parametrize("sink", sorted(SINKS))
@pytest.mark.parametrize(("name", "template"), CASES, ids=[c[0] for c in CASES])
def test_a_resolver_argument_reaching_a_sink_is_confirmed_and_its_sanitised_twin_is_not(
        name: str, template: str, sink: str) -> None:
    assert_twins(name, template, "d", sink)


@pytest.mark.parametrize(("name", "template"), CASES, ids=[c[0] for c in CASES])
def test_the_resolver_context_is_the_servers(name: str, template: str) -> None:
    raw, _ = twins(template, "str(info)", "path")
    assert raw == [], name


def test_a_resolver_returns_json_not_html() -> None:
    code = ("import graphene\n\n\nclass Query(graphene.ObjectType):\n"
            "    def resolve_run(root, info, d):\n        return '<p>' + d + '</p>'\n")
    assert twins(code, "d") == ([], [])
