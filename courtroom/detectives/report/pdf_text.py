"""Reading report prose: sentences, ties to the repository's code, mechanism language,
and whether a sentence states a fact, proposes work or discusses someone else's words.

Everything here is plain English and code shape, never a list of one rubric's terms.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from courtroom.detectives.nodes import node_text, walk
from courtroom.detectives.parsing import source_index
from courtroom.detectives.repo.workspace import Workspace
from courtroom.detectives.shared import per_workspace

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n{2,}")
#: Longest cited path looked up in the repository (no real one comes near it).
MAX_PATH_CHARS = 160
#: Characters of a mention's sentence kept on either side of it: the words near a path
#: decide its stance, and a page-long "sentence" must not be copied and read per mention.
SENTENCE_REACH = 200
_EXT = r"(?:py|md|json|toml|ya?ml|txt|cfg|ini|scm|sh|ipynb|j2|lock|pdf)"
PATH = re.compile(rf"(?<![\w/.-])((?:\.{{0,2}}/)?(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*"
                  rf"\.{_EXT})(?![\w/])")
#: Identifier shapes that only code has: dotted names, snake_case, camelCase, PascalCase.
CODE_TOKEN = re.compile(r"\b(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z0-9]*_\w+|"
                        r"[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*)\b")
_NAME_STRING = re.compile(r"[A-Za-z_][\w.]*")
#: Language that says how something works: causes, sequence, actions on data.
MECHANISM = re.compile(
    r"\b(because|since|so that|which means|this means|in order to|ensur\w*|guarantee\w*|"
    r"prevent\w*|avoid\w*|allow\w*|enabl\w*|implement\w*|handled by|works? by|via|through|"
    r"using|each|every|when(?:ever)?|then|after|before|until|instead of|rather than|"
    r"therefore|thus|otherwise|merg\w*|rout\w*|call\w*|invok\w*|dispatch\w*|sends?|sent|"
    r"returns?|writes?|written|reads?|waits?|joins?|combin\w*|appl(?:y|ies|ied)|"
    r"compar\w*|checks?|checked|reject\w*|overrid\w*|trigger\w*|runs?|executes?|"
    r"collect\w*|aggregat\w*|resolv\w*|valid\w*|enforc\w*|receiv\w*|pass(?:es|ed)|"
    r"produc\w*|emit\w*|stor\w*|updat\w*|assign\w*|weigh\w*|decid\w*|select\w*|"
    r"filter\w*|pars\w*|load\w*|inject\w*|spawn\w*|launch\w*|fans? (?:out|in))\b",
    re.IGNORECASE)
#: A sentence that plans work rather than describing what exists.
PROPOSAL = re.compile(
    r"\b(we (?:will|plan|intend|would|could|should|might|need to)|(?:will|would|should|could|"
    r"might|must|needs? to) (?:be )?(?:add|creat|introduc|split|mov|writ|implement|document)\w*|"
    r"plan(?:ned|s)?\b|to be (?:added|created|written)|next steps?|future work|todo|roadmap|"
    r"propos\w*|recommend\w*|not yet|never (?:written|created|added)|remediation|"
    r"fix(?:es)? (?:would|will)|"
    # An imperative at the start, after an optional "High:" / "P1:" / "Step 2:" label.
    r"^\W*(?:[\w ]{1,12}:\s*)?(?:add|create|introduce|write|move|implement)\b)",
    re.IGNORECASE)
#: A sentence about a path being wrong: it reports an error, it does not claim the file.
DISCUSSED = re.compile(
    r"\b(hallucinat\w*|renamed|flagged|misattribut\w*|does(?: not|n't) exist|no such file|"
    r"not found|wrong path|typo|mistaken\w*|peer(?:'s)? (?:audit|report|review)|"
    r"(?:audit|reviewer|grader|peer)s? (?:reported|said|claimed|found|flagged))\b",
    re.IGNORECASE)
_QUOTED = re.compile(r"[“\"]([^”\"]{3,400})[”\"]")
#: A path from someone's machine or elided with dots: not a claim about the repository.
LOCAL_PATH = re.compile(r"^(?:/(?:Users|home|tmp|var|mnt)/|[A-Za-z]:/|~/)|\.\.\.|…")


def sentences(text: str) -> list[str]:
    """Sentences of a page (line wraps joined, paragraphs split)."""
    flat = re.sub(r"(?<!\n)\n(?!\n)", " ", text)
    return [s.strip() for s in _SENTENCE.split(flat) if s.strip()]


def mechanism_terms(text: str) -> set[str]:
    """Distinct mechanism words and phrases in a passage."""
    return {m.lower() for m in MECHANISM.findall(text)}


@per_workspace
def repo_identifiers(ws: Workspace) -> frozenset[str]:
    """Names the repository's code uses, identifier-shaped strings in it, and file names.

    Read from the syntax tree, so a library named only in a comment or docstring is no
    tie to the code; a node name given as a string ("evidence_aggregator") is.
    """
    names: set[str] = set()
    for sf in source_index(ws).files:
        for node in walk(sf.root):
            if node.type == "identifier":
                names.add(node_text(node))
            elif node.type == "string_content":
                text = node_text(node)
                if len(text) <= 80 and _NAME_STRING.fullmatch(text):
                    names.add(text)
    for path in ws.files():
        name = path.rsplit("/", 1)[-1]
        names.update({name, name.rsplit(".", 1)[0]})
    return frozenset(names)


def _folded(name: str) -> str:
    """An identifier without case or underscores: the report's "RepoInvestigator" is the
    code's ``repo_investigator``."""
    return name.replace("_", "").lower()


#: Shortest folded identifier matched across spellings: shorter ones ("state", "judge")
#: are ordinary words, not names of the code.
FOLDED_MIN = 8


_DEFINES = {"function_definition", "class_definition"}


@per_workspace
def folded_identifiers(ws: Workspace) -> frozenset[str]:
    """Names the repository itself defines (functions, classes, name strings such as graph
    nodes, file names), FOLDED_MIN+ letters long, with case and underscores folded. A
    library's name it only imports ("langgraph") is not the repository's code."""
    names: set[str] = set()
    for sf in source_index(ws).files:
        for node in walk(sf.root):
            if node.type in _DEFINES:
                names.add(node_text(node.child_by_field_name("name")))
            elif node.type == "string_content":
                text = node_text(node)
                if len(text) <= 80 and _NAME_STRING.fullmatch(text):
                    names.add(text)
    for path in ws.files():
        names.add(path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return frozenset(f for f in map(_folded, names) if len(f) >= FOLDED_MIN)


def _by_suffix(paths: list[str]) -> dict[str, str]:
    """Each path by itself, then by every trailing part after a slash up to MAX_PATH_CHARS
    ("graph.py", "src/graph.py" -> "src/graph.py"; a full path first, then the first path
    in order): a cited path is looked up once, never compared with every file."""
    index = {path: path for path in paths}
    for path in paths:
        cut = len(path) - 1  # a folder's trailing slash stays on each of its suffixes
        while (cut := path.rfind("/", 0, cut)) != -1 and len(path) - cut - 1 <= MAX_PATH_CHARS:
            index.setdefault(path[cut + 1:], path)
    return index


@per_workspace
def file_index(ws: Workspace) -> dict[str, str]:
    """The repository's files by path and by path suffix (see ``_by_suffix``)."""
    return _by_suffix(ws.files())


@per_workspace
def folder_index(ws: Workspace) -> dict[str, str]:
    """The repository's folders (``src/nodes/``) by path and by path suffix."""
    folders = {f[:cut + 1] for f in ws.files() for cut, ch in enumerate(f) if ch == "/"}
    return _by_suffix(sorted(folders))


def code_ties(text: str, ws: Workspace) -> list[str]:
    """Code names and file paths in the text that really exist in the repository; a name
    in another casing of the code's own ("RepoInvestigator" for ``repo_investigator``)
    counts when it is long enough to be no ordinary word."""
    known = repo_identifiers(ws)
    folded = folded_identifiers(ws)
    files = file_index(ws)
    ties: list[str] = []
    for m in PATH.finditer(text.replace("\\", "/")):
        path = m.group(1).lstrip("./")
        if path in files:
            ties.append(path)
    for m in CODE_TOKEN.finditer(text):
        token = m.group(0)
        last = token.rsplit(".", 1)[-1]
        named = token in known or ("." in token and last in known) or \
            ("." not in token and _folded(token) in folded)
        if token not in ties and named and not PATH.fullmatch(token):
            ties.append(token)
    return list(dict.fromkeys(ties))


def stance(sentence: str, mention: str, around: str = "") -> str:
    """How a sentence uses a path: 'claim', 'proposal', 'discussed' or 'local'.

    ``around`` is nearby text beyond the sentence: tables break sentences apart, and a
    cell saying "renamed" or "hallucinated" beside the path still explains it.
    """
    if LOCAL_PATH.search(mention):
        return "local"
    if DISCUSSED.search(sentence) or DISCUSSED.search(around) or \
            any(mention in q for q in _QUOTED.findall(sentence)):
        return "discussed"
    if PROPOSAL.search(sentence):
        return "proposal"
    return "claim"


def mentions(text: str, pattern: re.Pattern[str], reach: int = 80) -> list[tuple[str, str, str]]:
    """(match, its sentence, the text ``reach`` characters either side) for each match.

    A sentence longer than SENTENCE_REACH either side of the match is given as its
    opening words, `` … ``, and the words around the match.
    """
    out: list[tuple[str, str, str]] = []
    flat = " ".join(text.replace("\\", "/").split())
    bounds = [0] + [m.end() for m in _SENTENCE.finditer(flat)] + [len(flat)]
    for m in pattern.finditer(flat):
        left = bounds[bisect_right(bounds, m.start()) - 1]
        right = min(bounds[bisect_left(bounds, m.end())], m.end() + SENTENCE_REACH)
        near = max(left, m.start() - SENTENCE_REACH)
        head = flat[left:min(near, left + SENTENCE_REACH)] + " … " if near > left else ""
        group = (m.group(1) if pattern.groups else None) or m.group(0)
        out.append((group, (head + flat[near:right]).strip(),
                    flat[max(0, m.start() - reach):m.end() + reach]))
    return out
