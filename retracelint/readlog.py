"""What the rules of a run read of the project, and whether the next run of the same project reads
the same: then the rules' findings are the last run's (the language server's early cutoff for the
rules, section 6c of ``docs/architecture.md``).

The rules (``checks.run_checks``, with the propagation and ``evidence``) are a function of what
they read: the project's tables (``Logged``: the functions, classes and modules by name, the targets
of each call site, the callers of each function, the lookups' memos), the answers of the questions
that read a whole table (``query``: the frequency model's, the names assigned anywhere, the jit call
sites, what each module gives the checks of the whole project) and the lines of the files
``evidence`` reads. While a run's rules run, each read is kept with its answer, copied (a relink
changes the link's lists in place). After an edit the reads are asked again of the new project,
never with the last run's objects as arguments (only names, call sites and other values); when
every answer is the same, so is every step of the rules, and so are their findings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from retracelint.callgraph import Project
    from retracelint.model import Finding
    from retracelint.propagate import Propagation

_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])


class _Missing:
    """The answer of a key a table does not hold."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()
_FRESH = _Missing()  # a memo's key filled while the rules ran (``Logged``)
_get, _has = dict.get, dict.__contains__
_WHOLE = "(whole)"  # the key of a read of a whole table (a walk of its items)


def frozen(value: object) -> object:
    """``value`` as kept and compared: a list, a dict (its items, in order) or a set copied into
    what nothing changes in place."""
    kind = type(value)
    if kind is list:
        return tuple(value)  # type: ignore[arg-type]
    if kind is dict:
        return tuple(value.items())  # type: ignore[attr-defined]
    if kind is set:
        return frozenset(value)  # type: ignore[arg-type]
    return value


# By class: the fields its equality leaves out, which the rules may still read (``Driver.path``, the
# calls a finding's path starts with; ``Driver.walk``, what its bound names), but for how an object
# was loaded (``metadata={"loading": True}``: a summary read as a head).
_UNCOMPARED: dict[type, tuple[str, ...]] = {}


def _uncompared(kind: type) -> tuple[str, ...]:
    found = _UNCOMPARED.get(kind)
    if found is None:
        found = _UNCOMPARED[kind] = (
            tuple(
                f.name
                for f in fields(kind)
                if not f.compare and not f.metadata.get("loading", False)
            )
            if is_dataclass(kind)
            else ()
        )
    return found


def told(answer: object) -> object:
    """A question's answer as kept and compared: ``frozen``, with the fields its equality leaves
    out (of it, or of the items of a list of them, which are of one kind): a driver equal to the
    last run's but reached by another way must not give the last run's call paths."""
    kind = type(answer)
    if kind is list or kind is tuple:
        if answer and _uncompared(type(answer[0])):  # type: ignore[index]
            return tuple(map(told, answer))  # type: ignore[call-overload]
        return frozen(answer)
    hidden = _uncompared(kind)
    if hidden:
        return (answer, tuple(told(getattr(answer, name)) for name in hidden))
    return frozen(answer)


@dataclass
class ReadLog:
    """The reads of one run's rules, by what was asked (a table, a question), then by key, each
    with its answer (``frozen``)."""

    reads: dict[str, dict[Hashable, object]] = field(default_factory=dict)
    # Inside a question of the frequency model about the whole call graph: what it reads is told
    # by its answers, but for what it asks the propagation (``resumed``).
    paused: int = 0
    # Inside a question whose answer tells what its walks of whole tables found: a walk is not
    # logged, what it reads by key is.
    walking: int = 0
    # Something the answers do not tell happened (a question stopped by an exception, a check
    # near its budget of steps): the next run runs the rules.
    unsure: bool = False

    def note(self, what: str, key: Hashable, answer: object) -> None:
        if self.paused:
            return
        answers = self.reads.get(what)
        if answers is None:
            answers = self.reads[what] = {}
        if key not in answers:
            answers[key] = told(answer)

    def __len__(self) -> int:
        return sum(map(len, self.reads.values()))


# The log of the rules running now (the analysis runs one project at a time, in one thread).
_active: ReadLog | None = None


def active() -> ReadLog | None:
    return _active


def query(owner: str, whole: bool = False) -> Callable[[_F], _F]:
    """A method of ``owner`` (a role ``Asked.owner`` finds again in the next run: ``"symbols"``,
    ``"prop"``, ``"frequency"``) whose answer is logged: its arguments are values (names, call
    sites, module-level functions), never a run's objects, so the next run asks it again. The
    walks of whole tables it makes are told by its answer, not logged; what it reads by key is,
    unless ``whole``: a question about the whole project (the frequency model's), whose reads
    are all told by its answers, but for what it asks the propagation (``resumed``), whose memos
    the rules read again."""

    def wrap(method: _F) -> _F:
        name = f"{owner}.{method.__name__}"

        @functools.wraps(method)
        def asked(self: object, *args: Hashable, **named: Hashable) -> object:
            log = _active
            if log is None or log.paused:
                return method(self, *args, **named)
            if whole:
                log.paused += 1
            else:
                log.walking += 1
            try:
                answer = method(self, *args, **named)
            except BaseException:
                log.unsure = True
                raise
            finally:
                if whole:
                    log.paused -= 1
                else:
                    log.walking -= 1
            log.note(name, (args, tuple(named.items())), answer)
            return answer

        return asked  # type: ignore[return-value]

    return wrap


def resumed(ask: _F) -> _F:
    """``ask`` (what the frequency model asks the propagation) logged as the rules' own reads, also
    inside a question about the whole project: the memos it fills are the rules' too."""

    @functools.wraps(ask)
    def logged(*args: object) -> object:
        log = _active
        if log is None or not (log.paused or log.walking):
            return ask(*args)
        paused, walking = log.paused, log.walking
        log.paused = log.walking = 0
        try:
            return ask(*args)
        finally:
            log.paused, log.walking = paused, walking

    return logged  # type: ignore[return-value]


class Logged(dict):  # type: ignore[type-arg]
    """One of the project's tables while the rules run: each key read is logged with its answer,
    each walk of the whole table as its items. A memo's (``answer`` given) hits are logged only
    for keys it held before the rules began: one filled since was found from reads logged then.
    The rules read a table hundreds of thousands of times: a key logged already costs a lookup."""

    __slots__ = ("_answer", "_answers", "_log")

    def __init__(
        self,
        name: str,
        data: dict,  # type: ignore[type-arg]
        log: ReadLog,
        answer: Callable[[object], object] | None = None,
    ) -> None:
        super().__init__(data)
        self._log, self._answer = log, answer
        # The log's answers of this table: a memo's keys filled meanwhile too, as ``_FRESH``.
        self._answers = log.reads.setdefault(name, {})

    def _read(self, key: Hashable, value: object) -> None:
        """``key``'s first read (``_answers`` has it not)."""
        if self._log.paused:
            return
        if self._answer is None:
            self._answers[key] = frozen(value)
        elif value is not MISSING:
            self._answers[key] = frozen(self._answer(value))

    def __getitem__(self, key: Hashable) -> object:
        value = _get(self, key, MISSING)
        if key not in self._answers:
            self._read(key, value)
        if value is MISSING:
            raise KeyError(key)
        return value

    def get(self, key: Hashable, default: object = None) -> object:
        value = _get(self, key, MISSING)
        if key not in self._answers:
            self._read(key, value)
        return default if value is MISSING else value

    def __contains__(self, key: object) -> bool:
        value = _get(self, key, MISSING)
        if key not in self._answers:
            self._read(key, value)  # type: ignore[arg-type]
        return value is not MISSING

    # A memo's key filled while its reads are logged: its hits are told by them. One filled
    # inside a question about the whole project is not (``ReadLog.paused``): its hits are logged.
    def __setitem__(self, key: Hashable, value: object) -> None:
        if self._answer is not None and not self._log.paused:
            self._answers.setdefault(key, _FRESH)
        dict.__setitem__(self, key, value)

    def setdefault(self, key: Hashable, default: object = None) -> object:
        if self._answer is not None and not self._log.paused and not _has(self, key):
            self._answers.setdefault(key, _FRESH)
        return dict.setdefault(self, key, default)

    def _whole(self) -> None:
        log = self._log
        if log.paused or log.walking:
            return
        if self._answer is None:
            self._answers.setdefault(_WHOLE, _items(self))
        else:
            self._log.unsure = True  # a memo walked: not what memos are for

    def __iter__(self) -> Iterator[Hashable]:
        self._whole()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._whole()
        return dict.__len__(self)

    def keys(self):  # type: ignore[no-untyped-def]
        self._whole()
        return dict.keys(self)

    def values(self):  # type: ignore[no-untyped-def]
        self._whole()
        return dict.values(self)

    def items(self):  # type: ignore[no-untyped-def]
        self._whole()
        return dict.items(self)


def _items(table: dict) -> tuple[tuple[Hashable, object], ...]:  # type: ignore[type-arg]
    """A whole table as kept and compared."""
    return tuple((key, frozen(value)) for key, value in dict.items(table))


def _first(value: object) -> object:
    return value[0]  # type: ignore[index]


def _same(value: object) -> object:
    return value


@dataclass(frozen=True)
class _Table:
    """A table the rules read: where it is (``symbols`` or the project), and for a memo, how its
    answer is kept (``answer``) and asked again of another project (``ask``)."""

    name: str
    of_symbols: bool
    answer: Callable[[object], object] | None = None
    ask: Callable[[Project, Any], object] | None = None
    lists: bool = False  # its values are lists, which the next link may change in place


def _ref(project: Project, key: tuple[str, Any]) -> object:
    fn = project.functions.get(key[0])
    return MISSING if fn is None else project.resolve_ref(fn, key[1])


def _types(project: Project, key: tuple[str, str]) -> object:
    fn, module = project.functions.get(key[0]), project.owner.get(key[0])
    if fn is None or module is None:
        return MISSING
    return project.classes_of(module, fn, (key[1],), 0)


_TABLES = (
    _Table("functions", True),
    _Table("owner", True),
    _Table("classes", True),
    _Table("modules", True),
    _Table("_registered", True),
    _Table("_mro", True, _same, lambda p, cls: p.symbols.mro(cls)),
    _Table("targets", False),
    _Table("site_targets", False),
    _Table("callers", False, lists=True),
    _Table("jit_callers", False, lists=True),
    _Table("_callees", False),
    _Table("_refs", False, _first, _ref),
    _Table("_types", False, _first, _types),
    _Table("_bindings", False, _first, lambda p, target: p.jit_binding(target)),
    _Table("_target_to", False, _same, lambda p, key: p.target_to(*key)),
)
_BY_NAME = {table.name: table for table in _TABLES}
# The tables ``Project`` shares with its ``Symbols`` (``project.functions is symbols.functions``).
_SHARED = frozenset({"functions", "owner", "classes", "modules"})


@contextmanager
def recording(project: Project, log: ReadLog) -> Iterator[None]:
    """Log what is read of ``project`` inside: its tables are ``Logged`` copies meanwhile, plain
    dicts again after (what the next link takes over, and pickles)."""
    global _active
    holders = {True: project.symbols, False: project}
    # Each file's calls by place, kept by module (``session.Picked``): asked again as questions.
    project.symbols._calls_at.clear()
    for table in _TABLES:
        logged = Logged(
            table.name, getattr(holders[table.of_symbols], table.name), log, table.answer
        )
        setattr(holders[table.of_symbols], table.name, logged)
        if table.name in _SHARED:
            setattr(project, table.name, logged)
    _active = log
    try:
        yield
    finally:
        _active = None
        for answers in log.reads.values():
            for key in [k for k, a in answers.items() if a is _FRESH]:
                del answers[key]
        for table in _TABLES:
            plain = dict(dict.items(getattr(holders[table.of_symbols], table.name)))
            setattr(holders[table.of_symbols], table.name, plain)
            if table.name in _SHARED:
                setattr(project, table.name, plain)


@dataclass
class Asked:
    """What the reads are asked of in a run after an edit."""

    project: Project
    prop: Propagation
    read_lines: Callable[[str], list[str]]

    def owner(self, role: str) -> object:
        if role == "project":
            return self.project
        if role == "symbols":
            return self.project.symbols
        if role == "prop":
            return self.prop
        return self.prop.frequency

    def same(self, what: str, answers: dict[Hashable, object]) -> bool:
        """Whether each key of ``what`` (a table, a question) answers here what ``answers`` say."""
        table = _BY_NAME.get(what)
        if table is not None and table.ask is None:
            data = getattr(self.project.symbols if table.of_symbols else self.project, what)
            get = data.get
            # In C, by identity first: the summaries and link entries an edit left are the
            # same objects.
            if table.lists:
                now = [v if (v := get(k, MISSING)) is MISSING else tuple(v) for k in answers]
            else:
                now = [get(k, MISSING) for k in answers]
            if _WHOLE in answers:
                now[list(answers).index(_WHOLE)] = _items(data)
            return now == list(answers.values())
        if table is not None:
            ask = table.ask
            return all(frozen(ask(self.project, k)) == a for k, a in answers.items())  # type: ignore[misc]
        if what == "lines":
            return all(frozen(self.read_lines(k)) == a for k, a in answers.items())  # type: ignore[arg-type]
        role, _, name = what.partition(".")
        method = getattr(self.owner(role), name)
        return all(
            told(method(*args, **dict(named))) == a
            for (args, named), a in answers.items()  # type: ignore[misc]
        )


@dataclass
class Replay:
    """A run's rules: what they read (``log``) and what they found (before filters)."""

    log: ReadLog
    findings: tuple[Finding, ...]
    cut: tuple[Finding, ...]  # where the checks were cut short
    facts: tuple[object, ...]  # what every lookup reads: x64, the settings, the import layout

    def holds(self, asked: Asked, facts: tuple[object, ...]) -> bool:
        """Whether the rules would read the same of ``asked``'s project: the tables first (a
        lookup each), then the memos and questions, which compute; a difference ends it."""
        if self.log.unsure or len(facts) != len(self.facts):
            return False
        if any(a is not b and a != b for a, b in zip(facts, self.facts, strict=True)):
            return False
        reads = self.log.reads
        for what in sorted(reads, key=_cost):
            if _cost(what) == _QUESTION:
                # What the frequency model's drivers asked the propagation (``resumed``) is among
                # the reads found the same, or among the questions, asked next.
                asked.prop.frequency.held_known = True
            if not asked.same(what, reads[what]):
                return False
        return True


def _cost(what: str) -> int:
    """How much asking ``what`` again costs: a table's lookup, a memo's or a file's, a question."""
    table = _BY_NAME.get(what)
    if table is not None:
        return 0 if table.ask is None else 1
    return 2 if what == "lines" else _QUESTION


_QUESTION = 3


def lines_logged(read_lines: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """``read_lines`` with each file's lines logged, while the rules run."""

    def read(path: str) -> list[str]:
        lines = read_lines(path)
        log = _active
        if log is not None:
            log.note("lines", path, lines)
        return lines

    return read


def rules_facts(project: Project) -> tuple[object, ...]:
    """What every lookup reads besides the tables: whether x64 is on anywhere, the settings of the
    jax config the modules make, the import layout (the same object while the files are)."""
    return (project.x64, frozen(project.settings), project.symbols.layout)
