"""The chief justice's named rules as code: where each is implemented, or that it is not.

A rule counts only as code (comments and docstrings are blanked), and a rule that must
decide something (fact supremacy) only where its code changes a score: an evidence check
that words the remediation overrules nothing.
"""

from __future__ import annotations

import re

from courtroom.detectives.nodes import enclosing, walk
from courtroom.detectives.parsing import Node, SourceFile, SourceIndex
from courtroom.detectives.repo.judge_code_facts import Hit, code_text, justice_files, line_of

#: The chief justice's named rules, each as what its code must mention (lower-cased).
RULES: dict[str, tuple[re.Pattern[str], ...]] = {
    "security override": (re.compile(r"secur"), re.compile(r"overrid|\bcap\b|_cap|cap_|min\(")),
    "fact supremacy": (re.compile(r"supremacy|hallucinat|\.found\b|\[['\"]found['\"]\]|"
                                  r"not_found|missing_evidence|fact_check|cited_evidence"),),
    "functionality weight": (re.compile(r"weight|functionality"),),
    "dissent summary": (re.compile(r"dissent"),),
    "variance re-evaluation": (re.compile(r"variance|max\([^)]*\)\s*-\s*min\("),
                               re.compile(r"re_?evaluat|reevaluat|re-evaluat|rehear|re_?exam"
                                          r"|second_look|re_?judge|retrial|re_?deliberat")),
}


#: Rules whose code must change a score, not only mention the rule's words: an evidence
#: check that only words the remediation ("Address failures in ...") overrules nothing.
SCORING_RULES = frozenset({"fact supremacy"})
#: What a rule decides: a score, the verdict, the final or capped value.
_SCORE_NAME = re.compile(r"score|verdict|final|grade|rating|cap", re.I)
#: Functions whose return value is a rule's decision.
_RULE_FUNCTION = re.compile(r"score|verdict|rule|supremac|overrid|resolv|decid|judg|cap|"
                            r"synthes|penal|adjust|justice|chief", re.I)
#: Most matches of a scoring rule's words checked per file.
MAX_RULE_MATCHES = 50


def synthesis_rules(index: SourceIndex) -> dict[str, Hit | None]:
    """Each named rule of the chief justice: where its code is, or None when absent. A
    rule in SCORING_RULES counts only where its words sit in code that changes a score."""
    texts = [(sf, code_text(sf)) for sf in justice_files(index)]
    out: dict[str, Hit | None] = {}
    for rule, patterns in RULES.items():
        out[rule] = None
        for sf, text in texts:
            low = text.lower()
            found = [p.search(low) for p in patterns]
            if not all(found):
                continue
            first = found[-1]
            assert first is not None
            if rule in SCORING_RULES:
                first = next((m for k, m in enumerate(patterns[-1].finditer(low))
                              if k < MAX_RULE_MATCHES and decides_score(sf, text, m.start())),
                             None)
                if first is None:
                    continue
            line = line_of(low, first.start())
            out[rule] = Hit(sf.path, line, " ".join(text.splitlines()[line - 1].split())[:160])
            break
    return out


def _node_at(sf: SourceFile, text: str, pos: int) -> Node | None:
    """The syntax node at a character position of the file's text."""
    row = text.count("\n", 0, pos)
    start = text.rfind("\n", 0, pos) + 1
    column = len(text[start:pos].encode("utf-8"))
    return sf.root.descendant_for_point_range((row, column), (row, column))


def decides_score(sf: SourceFile, text: str, pos: int) -> bool:
    """Whether the code at ``pos`` changes a score: it is the condition of a branch that
    sets one, it is assigned (in any expression, ``2 if ... else 0``) to a score or to a
    name such a branch or score reads, or it is returned by a rule's function."""
    node = _node_at(sf, text, pos)
    while node is not None and node.type != "function_definition":
        parent = node.parent
        if parent is not None and parent.type in ("if_statement", "elif_clause",
                                                   "while_statement"):
            condition = parent.child_by_field_name("condition")
            if condition is not None and condition == node:
                body = parent.child_by_field_name("consequence") or \
                    parent.child_by_field_name("body")
                return body is not None and _branch_decides(sf, body)
        if node.type in ("assignment", "augmented_assignment"):
            left = sf.text(node.child_by_field_name("left"))
            if _SCORE_NAME.search(left):
                return True
            scope = enclosing(node, ("function_definition",)) or sf.root
            return any(_reads_into_score(sf, scope, name) for name in _NAME.findall(left))
        if node.type == "return_statement":
            return _returns_decision(sf, node)
        node = parent
    return False


def _returns_decision(sf: SourceFile, node: Node) -> bool:
    """Whether a return statement gives a rule's decision: its function is named as a rule,
    or a branch that sets a score calls it (``if not supports_claim(ev): final = ...``)."""
    function = enclosing(node, ("function_definition",))
    name = function.child_by_field_name("name") if function is not None else None
    if name is None:
        return False
    return bool(_RULE_FUNCTION.search(sf.text(name))) or \
        _reads_into_score(sf, sf.root, sf.text(name))


def _branch_decides(sf: SourceFile, body: Node) -> bool:
    """Whether a branch sets a score, or sets a flag that a later branch turns into one."""
    if _sets_score(sf, body):
        return True
    scope = enclosing(body, ("function_definition",)) or sf.root
    lefts = [n.child_by_field_name("left") for n in walk(body) if n.type == "assignment"]
    flags = {sf.text(left) for left in lefts if left is not None and left.type == "identifier"}
    return any(_reads_into_score(sf, scope, flag) for flag in flags)


_NAME = re.compile(r"[A-Za-z_]\w*")


def _sets_score(sf: SourceFile, block: Node) -> bool:
    """Whether a branch assigns a score or returns a rule function's decision."""
    for node in walk(block):
        if node.type in ("assignment", "augmented_assignment") and \
                _SCORE_NAME.search(sf.text(node.child_by_field_name("left"))):
            return True
        if node.type == "return_statement" and node.named_child_count:
            function = enclosing(node, ("function_definition",))
            name = function.child_by_field_name("name") if function is not None else None
            if name is not None and _RULE_FUNCTION.search(sf.text(name)):
                return True
    return False


def _reads_into_score(sf: SourceFile, scope: Node, name: str) -> bool:
    """Whether, in ``scope``, a branch on ``name`` sets a score, or ``name`` is used in a
    value assigned to a score or returned by a rule's function."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    for node in walk(scope):
        if node.type in ("if_statement", "elif_clause", "while_statement"):
            condition = node.child_by_field_name("condition")
            body = node.child_by_field_name("consequence") or node.child_by_field_name("body")
            if condition is not None and body is not None and \
                    word.search(sf.text(condition)) and _sets_score(sf, body):
                return True
        elif node.type in ("assignment", "augmented_assignment"):
            right = node.child_by_field_name("right")
            if right is not None and word.search(sf.text(right)) and \
                    _SCORE_NAME.search(sf.text(node.child_by_field_name("left"))):
                return True
        elif node.type == "return_statement" and word.search(sf.text(node)):
            function = enclosing(node, ("function_definition",))
            named = function.child_by_field_name("name") if function is not None else None
            if named is not None and _RULE_FUNCTION.search(sf.text(named)):
                return True
    return False
