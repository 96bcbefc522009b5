"""``retracelint server``: a language server over stdio (pygls), for editors.

Each analysis is the command line's: ``engine.analyse_projects`` over every open file, each within its
whole project and with that project's configuration, so an editor shows exactly what ``retracelint FILE``
prints (noqa, per-file ignores, severity and confidence applied). The buffer just edited is analysed as
it stands, in the place of its file on disk (as ``--stdin-filename`` does); every open file's diagnostics
are published again after each run, so a finding that an edit in one file causes or removes in another
open file appears or goes there too. Typing is debounced, and a run that a newer edit overtook is not
published.

A quick fix is the rewrite ``--fix`` makes for the finding, planned again at the request from the
open buffers and the files on disk (a file changed since the analysis is read as it is now, and the fix
is refused where it no longer holds); a fix of several files is one ``WorkspaceEdit`` of them all, for
clients that take ``documentChanges``. The fixes only ``--unsafe-fixes`` makes are offered under
``retracelint server --unsafe-fixes``.

The analysis runs in a thread, one run at a time; an exception in it is logged to the client
(``window/logMessage``) and the server goes on. Nothing but the protocol is written to standard output:
the process's ``sys.stdout`` is standard error once the server has taken the real one.
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from retracelint import __version__, config
from retracelint.filters import NOQA
from retracelint.fixes import FileFix, plan
from retracelint.flake8_plugin import buffer_bytes
from retracelint.formats.sarif import flow_steps, told_steps
from retracelint.model import Finding, Location
from retracelint.rules import RULES_BY_CODE, page_url
from retracelint.session import Cancelled, Memory, Watch, settle
from retracelint.summarise.source import module_text

DEBOUNCE_S = 0.3  # after the last keystroke, before a change is analysed
SOURCE = "retracelint"

_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


def settings_for(found: Path | None) -> config.Settings:
    """A project's settings as ``retracelint FILE`` reads them: its configuration file, or defaults."""
    return config.load_file(found) if found is not None else config.Settings()


def analyse_open(
    texts: dict[str, str], edited: str | None, watch: Watch
) -> dict[str, list[Finding]]:
    """The findings of each open file (by absolute path), every buffer read as it stands; ``edited``
    (the buffer just changed) is named as standard input would be, so that it is analysed also
    before it is first saved. Another open file that is not on disk (deleted while open) is no
    file of its project: nothing is shown in it until it is edited or saved again."""
    from retracelint.engine import analyse_projects

    out: dict[str, list[Finding]] = {path: [] for path in texts}
    paths = [path for path in sorted(texts) if path == edited or os.path.isfile(path)]
    if not paths:
        return out  # no paths would mean the current folder to analyse_projects, as to the CLI
    unsaved = {path: buffer_bytes(path, text) for path, text in texts.items()}
    broken = _unparsable(texts, unsaved, watch.memory)
    unsaved.update((path, good) for path, (good, _) in broken.items())
    watch.buffers = {path: data for path, data in unsaved.items() if data is not None}
    override = watch.buffers.get(edited) if edited is not None else None
    name = edited if override is not None and edited is not None else "stdin.py"
    _, run = analyse_projects(paths, settings_for, override, name, watch=watch)
    for finding in run.findings:
        path = _absolute(finding.location.path)
        if path in out and path not in broken:
            out[path].append(finding)
    out.update((path, errors) for path, (_, errors) in broken.items())
    return out


def _unparsable(
    texts: dict[str, str], unsaved: dict[str, bytes | None], memory: Memory | None
) -> dict[str, tuple[bytes, list[Finding]]]:
    """The open files that do not parse now but did before: for each, the last text of it that
    parsed, which the run analyses in its place (a typo half-way through a line keeps the findings
    it made elsewhere), and the RTL000 it shows instead of its findings. The last text that parsed
    of every other open file is kept in ``memory`` for the next run."""
    from retracelint.engine import syntax_findings

    if memory is None:
        return {}
    out = {}
    for path, text in texts.items():
        data = unsaved[path]
        data = text.encode("utf-8") if data is None else data
        good = memory.parsed.get(path)
        if data == good:
            continue
        errors = syntax_findings(path, data, settings_for(config.project_of(path)[1]))
        if errors is None:
            memory.parsed[path] = data
        elif good is not None:
            out[path] = (good, errors)
    return out


def _absolute(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


# How long a text is in the position encoding the client and server agreed on (``Units``): LSP's
# default UTF-16 code units, or UTF-8 bytes or code points where the client prefers them (pygls takes
# the client's first choice, ``Workspace.position_codec``). Findings count code points.
Units = Callable[[str], int]


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _position(lines: list[str], line: int, col: int, units: Units) -> types.Position:
    """A 1-based line and column (code points) as an LSP position in a document of ``lines``."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Position(line=max(line - 1, 0), character=units(text[: max(col - 1, 0)]))


def finding_range(loc: Location, lines: list[str], units: Units = utf16_units) -> types.Range:
    """The span of ``loc``; to the end of its line when the analysis gave no end."""
    start = _position(lines, loc.line, loc.col, units)
    if loc.end_line >= loc.line and loc.end_col > 0:
        end = _position(lines, loc.end_line, loc.end_col, units)
    else:
        text = lines[loc.line - 1].rstrip("\r\n") if 0 < loc.line <= len(lines) else ""
        end = types.Position(line=start.line, character=units(text))
    return types.Range(start=start, end=end)


def _lines_of(path: str, open_texts: dict[str, str]) -> list[str]:
    if path in open_texts:
        return open_texts[path].splitlines()
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read().splitlines()
    except OSError:
        return []


def related(
    finding: Finding, open_texts: dict[str, str], units: Units = utf16_units
) -> list[types.DiagnosticRelatedInformation]:
    """The call path and the jit site of ``finding``, and the findings it tells of its re-trace
    (``related``), each a location an editor can jump to."""
    if finding.jit_site is None and not finding.call_path:
        return []
    from retracelint.model import Route

    route = Route(finding.call_path, finding.jit_site, finding.parameter)
    out = []
    for loc, message, _kind in [*flow_steps(finding, route), *told_steps(finding)]:
        path = _absolute(loc.path)
        where = types.Location(
            uri=from_fs_path(path) or path,
            range=finding_range(loc, _lines_of(path, open_texts), units),
        )
        out.append(types.DiagnosticRelatedInformation(location=where, message=message))
    return out


def shown_message(finding: Finding) -> str:
    """The message as the command line run in the project's folder shows it: a finding shown at a
    call in the open file names where it is made (``from pkg/data.py:6: ...``) relative to the
    project, not by the absolute path the server analyses it under."""
    return finding.headline(_in_project)


def _in_project(path: str) -> str:
    return os.path.relpath(path, config.project_of(path)[0])


def diagnostic(
    finding: Finding, lines: list[str], open_texts: dict[str, str], units: Units = utf16_units
) -> types.Diagnostic:
    return types.Diagnostic(
        range=finding_range(finding.location, lines, units),
        message=shown_message(finding),
        severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Error),
        code=finding.code,
        code_description=types.CodeDescription(href=page_url(finding.code)),
        source=SOURCE,
        related_information=related(finding, open_texts, units) or None,
    )


def hover_text(finding: Finding) -> str:
    """Markdown: the rule's name, why it matters and how to fix it, and its page."""
    rule = RULES_BY_CODE.get(finding.code)
    if rule is None:
        return f"**{finding.code}** {shown_message(finding)}"
    fix = finding.fix or rule.fix
    return (
        f"**{rule.title}** ({finding.severity})\n\n{rule.summary}.\n\n**Fix:** {fix}.\n\n"
        f"[{rule.code}]({page_url(rule.code)})"
    )


def noqa_edit(finding: Finding, lines: list[str], units: Units = utf16_units) -> types.TextEdit:
    """``# noqa: CODE`` at the end of the finding's line, or CODE added to the noqa already there."""
    index = finding.location.line - 1
    text = lines[index] if 0 <= index < len(lines) else ""
    found = NOQA.search(text)
    if found is not None and found.group("codes"):
        at = found.end("codes")
        insert = f", {finding.code}"
    elif found is not None:  # a bare noqa already hides everything; name the code anyway
        at = found.end()
        insert = f": {finding.code}"
    else:
        at = len(text.rstrip())
        insert = f"  # noqa: {finding.code}"
    where = types.Position(line=index, character=units(text[:at]))
    end = types.Position(line=index, character=units(text) if found is None else where.character)
    return types.TextEdit(range=types.Range(start=where, end=end), new_text=insert)


# Lines as LSP counts them: ``str.splitlines`` would also break at form feeds and other separators.
_LSP_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def line_edit(before: str, after: str) -> types.TextEdit:
    """``before`` made ``after`` by one edit of the lines between the first and the last that differ
    (a whole-file fix may move lines)."""
    old, new = _LSP_LINES.findall(before), _LSP_LINES.findall(after)
    first = next(
        (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
        min(len(old), len(new)),
    )
    tail = 0
    while tail < min(len(old), len(new)) - first and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    span = types.Range(
        start=types.Position(line=first, character=0),
        end=types.Position(line=len(old) - tail, character=0),
    )
    return types.TextEdit(range=span, new_text="".join(new[first : len(new) - tail]))


@dataclass(frozen=True)
class QuickFix:
    """The rewrite ``--fix`` makes for one finding, planned from the files as they are now: a
    ``FileFix`` for each file it edits (all or nothing), and whether only ``--unsafe-fixes`` makes it."""

    files: list[FileFix]
    unsafe: bool


def quick_fix(finding: Finding, read: Callable[[str], bytes], unsafe: bool) -> QuickFix | None:
    """``finding``'s fix, the safe one if it has one, else the unsafe one where ``unsafe`` allows it.
    Planned again at each request: a fix planned at analysis time would edit stale text of a file
    changed since (on disk, where no buffer shows it)."""
    for allowed in (False, True) if unsafe else (False,):
        files = plan([finding], read, unsafe=allowed).fixes
        if files:
            return QuickFix(files, allowed)
    return None


def fix_edit(
    fix: QuickFix, versions: dict[str, int], document_changes: bool
) -> types.WorkspaceEdit | None:
    """The fix as a workspace edit: ``documentChanges`` (each open document by its version, which a
    client refuses for a buffer edited since; ``null`` for a file not open) where the client takes
    them (``document_changes``), else ``changes`` for a fix of one file; none for a fix of several
    files then (a client applying part of it would leave a caller without its callee)."""
    edits = []
    for file in fix.files:
        if file.before == file.after:
            continue  # the finding's own file, where a fix of another file alone leaves it as it is
        path = _absolute(file.path)
        uri = from_fs_path(path) or path
        edit = line_edit(module_text(file.before), module_text(file.after))
        edits.append((uri, versions.get(path), edit))
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=uri, version=version
                    ),
                    edits=[edit],
                )
                for uri, version, edit in edits
            ]
        )
    if len(edits) > 1:
        return None
    return types.WorkspaceEdit(changes={uri: [edit] for uri, _, edit in edits})


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


@dataclass
class State:
    """What the server knows between requests."""

    findings: dict[str, list[Finding]] = field(default_factory=dict)  # by absolute path
    published: dict[str, list[types.Diagnostic]] = field(default_factory=dict)  # by URI
    generation: int = 0  # bumped by every open, change, save and close
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    memory: Memory = field(default_factory=Memory)  # the projects' summaries and links
    analysed: bool = False  # once a run has finished: only the first one shows its progress


class Protocol(LanguageServerProtocol):
    """pygls's protocol, answering a request whose parameters it cannot read with a JSON-RPC error
    (pygls only shows the client a message, and the client would wait for the answer forever)."""

    def structure_message(self, data: dict) -> object:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" not in data or "method" not in data:
                raise
            self._send_response(data["id"], error=error.to_response_error())
            # Handled: what goes on is a notification no one handles, which pygls only logs.
            return JsonRPCNotification(method="$/retracelint/answered", jsonrpc="2.0", params=None)


Analyse = Callable[[dict[str, str], str | None, Watch], dict[str, list[Finding]]]


class RetracelintServer(LanguageServer):
    def __init__(self, analyse: Analyse, unsafe_fixes: bool = False):
        super().__init__(SOURCE, __version__, protocol_cls=Protocol)
        self.analyse = analyse
        self.unsafe_fixes = unsafe_fixes  # code actions offer the fixes only --unsafe-fixes makes
        self.state = State()

    def units(self, text: str) -> int:
        """``text``'s length in the position encoding agreed with the client (``Units``)."""
        return self.workspace.position_codec.client_num_units(text)

    def open_documents(self) -> dict[str, TextDocument]:
        """Every open document, by absolute path (documents that are not files left out)."""
        out = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path and uri.startswith("file:"):
                out[_absolute(path)] = document
        return out

    def open_texts(self) -> dict[str, str]:
        return {path: document.source for path, document in self.open_documents().items()}

    def versions(self) -> dict[str, int]:
        """Every open document's version, by absolute path."""
        found = self.open_documents().items()
        return {path: doc.version for path, doc in found if doc.version is not None}

    def reader(self) -> Callable[[str], bytes]:
        """A file as a fix reads it now: an open document's buffer, else the file on disk."""
        texts = self.open_texts()

        def read(path: str) -> bytes:
            text = texts.get(_absolute(path))
            unsaved = buffer_bytes(path, text) if text is not None else None
            return unsaved if unsaved is not None else Path(path).read_bytes()

        return read

    def takes_document_changes(self) -> bool:
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        return bool(edit is not None and edit.document_changes)

    def log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    async def refresh(self, uri: str, delay: float) -> None:
        """Analyse the open files after ``delay``, unless a newer event came meanwhile."""
        state = self.state
        state.generation += 1
        mine = state.generation
        if delay:
            await asyncio.sleep(delay)
        async with state.lock:
            if mine != state.generation:
                return  # a newer event runs its own analysis
            try:
                await self.analyse_and_publish(uri, mine)
            finally:
                # What the run left is collected after its diagnostics are out, before the next.
                await asyncio.to_thread(settle)

    async def analyse_and_publish(self, uri: str, mine: int) -> None:
        """Analyse the open files, run ``mine`` (the event's generation), and publish what it finds."""
        state = self.state
        texts = self.open_texts()
        path = to_fs_path(uri)
        edited = _absolute(path) if path else None
        # A newer event stops this run between its stages (what it summarised is kept).
        watch = Watch(state.memory, cancelled=lambda: mine != state.generation)
        progress = await self.progress(watch) if not state.analysed else None
        try:
            found = await asyncio.to_thread(self.analyse, texts, edited, watch)
        except Cancelled:
            self.log(types.MessageType.Log, "retracelint: a newer edit stopped the analysis")
            return
        except config.ConfigError as exc:  # the user's to fix: one line, as the CLI says it
            self.log(types.MessageType.Error, f"retracelint: error: {exc}")
            return
        except Exception:
            self.log(
                types.MessageType.Error,
                f"retracelint: analysis failed\n{traceback.format_exc()}",
            )
            return
        finally:
            if progress is not None:
                self.work_done_progress.end(progress, types.WorkDoneProgressEnd())
        state.analysed = True
        if mine != state.generation:
            return  # stale: an edit arrived while it ran
        self.publish(found, texts)

    async def progress(self, watch: Watch) -> str | None:
        """Show the run's progress (``$/progress``) where the client can show it: a token, begun."""
        window = self.client_capabilities.window
        if window is None or not window.work_done_progress:
            return None
        token = f"retracelint-{self.state.generation}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:  # the client refused the token: no progress, the run goes on
            return None
        begin = types.WorkDoneProgressBegin(title="retracelint", message="analysing", percentage=0)
        self.work_done_progress.begin(token, begin)
        loop = asyncio.get_running_loop()
        last = [-1]

        def report(message: str, percent: int) -> None:  # in the analysis thread
            if percent == last[0]:
                return  # one report a percent: a project of 2,000 files makes 100, not 2,000
            last[0] = percent
            value = types.WorkDoneProgressReport(message=message, percentage=percent)
            loop.call_soon_threadsafe(self.work_done_progress.report, token, value)

        watch.progress = report
        return token

    def publish(self, found: dict[str, list[Finding]], texts: dict[str, str]) -> None:
        state = self.state
        state.findings = found
        for path, findings in found.items():
            uri = from_fs_path(path) or path
            lines = texts[path].splitlines()
            diagnostics = [diagnostic(f, lines, texts, self.units) for f in findings]
            if state.published.get(uri) == diagnostics:
                continue
            state.published[uri] = diagnostics
            document = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri,
                    diagnostics=diagnostics,
                    version=document.version if document is not None else None,
                )
            )

    def findings_at(self, uri: str, where: types.Range) -> list[Finding]:
        path = to_fs_path(uri)
        if not path:
            return []
        document = self.workspace.get_text_document(uri)
        lines = document.source.splitlines()
        return [
            f
            for f in self.state.findings.get(_absolute(path), [])
            if _overlaps(finding_range(f.location, lines, self.units), where)
        ]


def make_server(analyse: Analyse = analyse_open, unsafe_fixes: bool = False) -> RetracelintServer:
    server = RetracelintServer(analyse, unsafe_fixes)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: RetracelintServer, params: types.DidOpenTextDocumentParams) -> None:
        await ls.refresh(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RetracelintServer, params: types.DidChangeTextDocumentParams) -> None:
        await ls.refresh(params.text_document.uri, DEBOUNCE_S)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RetracelintServer, params: types.DidSaveTextDocumentParams) -> None:
        await ls.refresh(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: RetracelintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.state.published.pop(uri, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )
        await ls.refresh(
            uri, 0
        )  # what the closed buffer held no longer counts; the file on disk does

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(
        ls: RetracelintServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        uri = params.text_document.uri
        lines = ls.workspace.get_text_document(uri).source.splitlines()
        read, versions = ls.reader(), ls.versions()
        actions = []
        for finding in ls.findings_at(uri, params.range):
            diagnostics = [d for d in params.context.diagnostics if d.code == finding.code]
            fix = quick_fix(finding, read, ls.unsafe_fixes)
            edit = fix_edit(fix, versions, ls.takes_document_changes()) if fix else None
            if fix is not None and edit is not None:
                rule_fix = finding.fix or RULES_BY_CODE[finding.code].fix
                actions.append(
                    types.CodeAction(
                        # an unsafe fix titled as ruff's server titles one, never preferred
                        title=f"Fix {finding.code}: {rule_fix}"
                        + (" (unsafe)" if fix.unsafe else ""),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=diagnostics,
                        is_preferred=not fix.unsafe,
                        edit=edit,
                    )
                )
            actions.append(
                types.CodeAction(
                    title=f"Add '# noqa: {finding.code}'",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=diagnostics,
                    is_preferred=False,
                    edit=types.WorkspaceEdit(changes={uri: [noqa_edit(finding, lines, ls.units)]}),
                )
            )
        return actions

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RetracelintServer, params: types.HoverParams) -> types.Hover | None:
        at = types.Range(start=params.position, end=params.position)
        found = ls.findings_at(params.text_document.uri, at)
        if not found:
            return None
        text = "\n\n---\n\n".join(hover_text(f) for f in found)
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    return server


def serve(unsafe_fixes: bool = False) -> None:
    """Speak the protocol on the real standard output; anything else printed goes to standard error.
    ``unsafe_fixes``: code actions offer the fixes only ``--unsafe-fixes`` makes too."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    gc.disable()  # collected after each run (``session.settle``)
    make_server(unsafe_fixes=unsafe_fixes).start_io(stdin, stdout)
