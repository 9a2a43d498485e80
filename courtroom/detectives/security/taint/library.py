"""What the engine knows about libraries: sources, sinks, sanitisers and plain propagators.

Keys are qualified names as the code imports them (``subprocess.run``, ``yaml.load``) or, for
methods on values whose type is not known, the method name (``execute``, ``read_text``).
"""

from __future__ import annotations

from dataclasses import dataclass

from courtroom.detectives.security.taint.spec import FRAMEWORKS
from courtroom.detectives.security.taint.values import (
    ALL,
    CLEAN,
    CODE,
    DESER,
    LDAP,
    LOCAL,
    PATH,
    SHELL,
    SQL,
    XPATH,
    XSS,
    Val,
)


@dataclass(frozen=True)
class Sink:
    """A call that is dangerous when the argument at ``arg`` carries ``kind`` taint."""

    kind: str
    rule: str
    cwe: int
    arg: int = 0
    keyword: str | None = None

    def argument(self, positional: list[Val], keywords: dict[str, Val]) -> Val:
        """The value of the sink's argument in a call (clean when the call omits it)."""
        if self.keyword is not None and self.keyword in keywords:
            return keywords[self.keyword]
        return positional[self.arg] if len(positional) > self.arg else CLEAN


_SHELL = Sink(SHELL, "shell-injection", 78)
_CODE = Sink(CODE, "code-injection", 94)
_SQL = Sink(SQL, "sql-injection", 89)
_PATH = Sink(PATH, "path-traversal", 22)
_DESER = Sink(DESER, "insecure-deserialization", 502)
_XSS = Sink(XSS, "cross-site-scripting", 79)

#: The process-running calls: shell injection when ``shell=True`` or when the program (or a
#: ``sh -c`` script) comes from the input. Decided in the interpreter, not by argument alone.
PROCESS = frozenset({
    "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
    "subprocess.Popen", "asyncio.create_subprocess_exec",
})
ALWAYS_SHELL = frozenset({
    "os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
    "commands.getoutput", "asyncio.create_subprocess_shell", "pty.spawn", "os.popen2",
    "os.popen3", "os.popen4",
})

#: Constructors of mappings whose keys the engine follows (a config parser is keyed by
#: (section, option)).
MAPPINGS = frozenset({"dict", "collections.OrderedDict", "collections.defaultdict",
                      "configparser.ConfigParser", "configparser.RawConfigParser",
                      "configparser.SafeConfigParser"})
#: Calls by qualified name whose argument ``arg`` is a sink.
SINKS: dict[str, Sink] = {
    **{name: _SHELL for name in ALWAYS_SHELL},
    "eval": _CODE, "exec": _CODE, "compile": _CODE, "builtins.eval": _CODE,
    "builtins.exec": _CODE, "code.InteractiveInterpreter.runsource": _CODE,
    "open": _PATH, "io.open": _PATH, "codecs.open": _PATH, "os.open": _PATH,
    "os.remove": _PATH, "os.unlink": _PATH, "os.rmdir": _PATH, "os.removedirs": _PATH,
    "os.listdir": _PATH, "os.scandir": _PATH, "os.mkdir": _PATH, "os.makedirs": _PATH,
    "os.rename": _PATH, "os.replace": _PATH, "os.chmod": _PATH,
    "os.path.exists": _PATH, "os.path.isfile": _PATH, "os.path.getsize": _PATH,
    "shutil.rmtree": _PATH, "shutil.copy": _PATH, "shutil.copyfile": _PATH,
    "shutil.copytree": _PATH, "shutil.move": _PATH, "fileinput.input": _PATH,
    "flask.send_file": _PATH, "send_file": _PATH, "django.http.FileResponse": _PATH,
    "fastapi.responses.FileResponse": _PATH, "starlette.responses.FileResponse": _PATH,
    "pickle.loads": _DESER, "pickle.load": _DESER, "cPickle.loads": _DESER,
    "cPickle.load": _DESER, "_pickle.loads": _DESER, "dill.loads": _DESER, "dill.load": _DESER,
    "marshal.loads": _DESER, "marshal.load": _DESER, "shelve.open": _DESER,
    "jsonpickle.decode": _DESER, "yaml.unsafe_load": _DESER, "yaml.full_load": _DESER,
    "yaml.load_all": _DESER, "joblib.load": _DESER, "pandas.read_pickle": _DESER,
    "markupsafe.Markup": _XSS, "flask.Markup": _XSS,
    "django.utils.safestring.mark_safe": _XSS,
    "sqlalchemy.text": _SQL, "pandas.read_sql": _SQL, "pandas.read_sql_query": _SQL,
}
#: ``yaml.load`` is safe only with a safe loader.
SAFE_YAML_LOADERS = frozenset({"SafeLoader", "CSafeLoader", "BaseLoader"})

#: Methods (on values of unknown type) whose argument or receiver is a sink.
METHOD_SINKS: dict[str, Sink] = {
    "execute": _SQL, "executemany": _SQL, "executescript": _SQL, "raw": _SQL,
    "mogrify": _SQL,
    "search": Sink(LDAP, "ldap-injection", 90, arg=1, keyword="search_filter"),
    "search_s": Sink(LDAP, "ldap-injection", 90, arg=2),
    "xpath": Sink(XPATH, "xpath-injection", 643),
}
#: ``Path`` methods: the path object itself is the sink.
PATH_METHODS = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes",
                          "unlink", "rmdir", "mkdir", "touch", "exists", "is_file",
                          "iterdir", "rename", "replace", "chmod", "stat"})

#: Calls that remove taint of some kinds (a sanitiser or a non-string result).
SANITISERS: dict[str, frozenset[str]] = {
    "shlex.quote": frozenset({SHELL}), "pipes.quote": frozenset({SHELL}),
    "shlex.join": frozenset({SHELL}),
    "html.escape": frozenset({XSS}), "markupsafe.escape": frozenset({XSS}),
    "flask.escape": frozenset({XSS}), "cgi.escape": frozenset({XSS}),
    "bleach.clean": frozenset({XSS}), "xml.sax.saxutils.escape": frozenset({XSS, XPATH}),
    "django.utils.html.escape": frozenset({XSS}),
    "ldap3.utils.conv.escape_filter_chars": frozenset({LDAP}),
    "ldap.filter.escape_filter_chars": frozenset({LDAP}),
    "os.path.basename": frozenset({PATH}), "werkzeug.utils.secure_filename": frozenset({PATH}),
    "secure_filename": frozenset({PATH}),
    "urllib.parse.quote": frozenset({SHELL, PATH, XSS, SQL, LDAP, XPATH}),
    "urllib.parse.quote_plus": frozenset({SHELL, PATH, XSS, SQL, LDAP, XPATH}),
    "int": ALL, "float": ALL, "bool": ALL, "len": ALL, "abs": ALL, "ord": ALL, "hash": ALL,
    "round": ALL, "id": ALL, "isinstance": ALL, "callable": ALL, "uuid.UUID": ALL,
    "flask.jsonify": ALL, "jsonify": ALL,
    "json.dumps": frozenset({SHELL, CODE, XSS}),
}
#: Normalising a path is half of a containment check (the guard after it is the other half).
NORMALISERS = frozenset({"os.path.realpath", "os.path.abspath", "os.path.normpath",
                         "resolve", "absolute", "realpath", "abspath", "normpath"})
#: Methods whose result carries no attacker text (booleans, numbers, digests), and a
#: database's rows: what the database holds is not the request's data.
CLEAN_METHODS = frozenset({
    "startswith", "endswith", "isdigit", "isnumeric", "isdecimal", "isalnum", "isalpha",
    "isidentifier", "isspace", "islower", "isupper", "find", "rfind", "index", "rindex",
    "count", "hexdigest", "digest", "exists", "is_file", "is_dir",
    "execute", "executemany", "fetchone", "fetchall", "fetchmany", "fetchrow", "fetchval",
})
#: Web request objects (the attacker's input as a whole), from the framework specs.
REQUESTS = frozenset(o for f in FRAMEWORKS for o in f.request.objects)
#: Attributes and methods of a request object that carry attacker data; the others (its
#: method, its authenticated user, its session) are the server's.
REQUEST_DATA = frozenset(d for f in FRAMEWORKS for d in f.request.data)
#: Calls whose result is local input (argv, environment, stdin, model output).
LOCAL_SOURCES = frozenset({"input", "raw_input", "os.getenv", "os.environ.get",
                           "sys.stdin.read", "sys.stdin.readline", "getpass.getpass"})
LOCAL_ATTRS = frozenset({"sys.argv", "os.environ", "sys.stdin"})
#: Methods whose result is local input: parsed command lines, model output, file contents.
LOCAL_METHODS = frozenset({"parse_args", "parse_known_args", "invoke", "ainvoke",
                           "read", "read_text", "read_bytes", "readline", "readlines",
                           "recv", "recvfrom"})
#: Decorators that wrap a function without exposing it to outside callers.
BENIGN = frozenset({"lru_cache", "cache", "cached_property", "staticmethod", "classmethod",
                    "property", "wraps", "overload", "override", "abstractmethod",
                    "contextmanager", "asynccontextmanager", "setter", "dataclass",
                    "fixture", "mark", "parametrize", "deprecated", "total_ordering",
                    "singledispatch", "register", "retry", "validator", "field_validator",
                    "model_validator", "root_validator", "timeout"})
#: Calls that register a function (by name) as an entry point fed local data (a model's
#: tool, a graph node); the web frameworks' registrars are in their specs.
REGISTRARS = frozenset({"add_node", "from_function", "register_tool", "Tool",
                        "StructuredTool"})
#: Sources that attack everything but local paths.
LOCAL_KINDS = LOCAL
#: Sink kinds checked for a (text) value that reaches a file's contents (not used as a path).
FILE_CONTENT_KINDS = frozenset({SHELL, CODE, SQL, DESER})
