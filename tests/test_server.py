"""``retracelint server``, driven over stdio by pygls's own LSP client, on a three-module project.

The project is `tests/fixtures_flake8/proj` (copied per test): loops in `pkg/main.py` make the values
that vary, `pkg/pipeline.py` passes them on and `pkg/kernels.py` holds the jitted functions, so the
findings of one file depend on the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
import test_fix_static_closures as closures
from click.testing import CliRunner
from limits import HANG_S
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from retracelint.cli import main

FIXTURE = Path(__file__).parent / "fixtures_flake8" / "proj"
SERVER = [sys.executable, "-c", "import sys; from retracelint.cli import main; sys.exit(main())"]
T = TypeVar("T")
SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    return root


class Client:
    """A pygls client holding the diagnostics the server published last, by URI."""

    def __init__(
        self,
        root: Path,
        progress: bool = False,
        document_changes: bool = False,
        server_args: tuple[str, ...] = (),
        encodings: list[str] | None = None,
    ) -> None:
        self.root = root
        self.encodings = encodings  # the position encodings the client takes, preferred first
        self.document_changes = document_changes  # whether the client takes versioned edits
        self.server_args = server_args
        self.lsp = LanguageClient("retracelint-test", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.logs: list[str] = []
        self.progress = progress  # whether the client says it shows work done progress
        self.tokens: list[object] = []  # made by window/workDoneProgress/create
        self.reports: list[tuple[object, dict]] = []  # $/progress: token, value
        self.opened: set[str] = set()  # the URIs of the documents open now

        @self.lsp.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params.diagnostics

        @self.lsp.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params: types.LogMessageParams) -> None:
            self.logs.append(params.message)

        @self.lsp.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create(params: types.WorkDoneProgressCreateParams) -> None:
            self.tokens.append(params.token)

        @self.lsp.feature(types.PROGRESS)
        def reported(params: types.ProgressParams) -> None:
            value = params.value
            shown = (
                value
                if isinstance(value, dict)
                else self.lsp.protocol._converter.unstructure(value)
            )
            self.reports.append((params.token, shown))

    async def start(self) -> None:
        await self.lsp.start_io(*SERVER, "server", *self.server_args, cwd=str(self.root))
        window = types.WindowClientCapabilities(work_done_progress=True) if self.progress else None
        edits = types.WorkspaceEditClientCapabilities(document_changes=self.document_changes)
        await self.lsp.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    window=window,
                    workspace=types.WorkspaceClientCapabilities(workspace_edit=edits),
                    general=types.GeneralClientCapabilities(position_encodings=self.encodings),
                ),
                root_uri=from_fs_path(str(self.root)),
            )
        )
        self.lsp.initialized(types.InitializedParams())

    async def code_actions(self, name: str, found: types.Diagnostic) -> list:
        """The code actions the server offers for the diagnostic ``found`` of file ``name``."""
        return await self.lsp.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri(name)),
                range=found.range,
                context=types.CodeActionContext(diagnostics=[found]),
            )
        )

    async def hover(self, name: str, at: types.Position) -> types.Hover | None:
        return await self.lsp.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri(name)), position=at
            )
        )

    def uri(self, name: str) -> str:
        return from_fs_path(str(self.root / name))

    def open(self, name: str, text: str | None = None) -> None:
        text = (self.root / name).read_text(encoding="utf-8") if text is None else text
        item = types.TextDocumentItem(
            uri=self.uri(name), language_id="python", version=1, text=text
        )
        self.lsp.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
        self.opened.add(item.uri)

    def close(self, name: str) -> None:
        self._close(self.uri(name))

    def _close(self, uri: str) -> None:
        self.lsp.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        self.opened.discard(uri)

    def change(self, name: str, text: str, version: int) -> None:
        self.lsp.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.uri(name), version=version
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def until(self, name: str, check) -> list[types.Diagnostic]:
        """The diagnostics of ``name`` once the server has published ones ``check`` holds for (after
        the run for the last edit): however long a loaded machine makes that run take, only a hang
        (``HANG_S``) stops the wait."""

        async def wait() -> list[types.Diagnostic]:
            while True:
                found = self.diagnostics.get(self.uri(name))
                if found is not None and check(found):
                    return found
                # Polled: pygls may call ``published`` outside this event loop's thread.
                await asyncio.sleep(0.02)

        try:
            return await asyncio.wait_for(wait(), HANG_S)
        except TimeoutError:
            shown = {uri: [where(d) for d in found] for uri, found in self.diagnostics.items()}
            raise AssertionError(f"diagnostics of {name} now: {shown}; log: {self.logs}") from None

    def move_to(self, root: Path) -> None:
        """Names are of files under ``root`` from now on; what the server said before is forgotten."""
        self.root = root
        for said in (self.diagnostics, self.logs, self.tokens, self.reports):
            said.clear()

    async def close_all(self, idle: Path) -> None:
        """Close every open document, then wait until the server is done with them: until it has
        published the diagnostics of ``idle`` (a clean file), opened after them, which its runs
        (one at a time, in order) make after every run the closing started."""
        for uri in list(self.opened):
            self._close(uri)
        self.move_to(idle.parent)
        self.open(idle.name)
        await self.until(idle.name, lambda d: True)
        self.close(idle.name)

    async def stop(self) -> int | None:
        await self.lsp.shutdown_async(None)
        self.lsp.exit(None)
        server = self.lsp._server
        code = await asyncio.wait_for(server.wait(), HANG_S) if server is not None else None
        await self.lsp.stop()
        return code


def cli_findings(root: Path, name: str) -> list[dict]:
    """What ``retracelint --output-format json NAME``, run in ``root``, finds."""
    with contextlib.chdir(root):
        done = CliRunner().invoke(main, ["--output-format", "json", name])
    assert done.exit_code in (0, 1), done.output
    return json.loads(done.stdout)


def where(d: types.Diagnostic) -> tuple[int, int, str]:
    return (d.range.start.line + 1, d.range.start.character + 1, str(d.code))


def run(test) -> None:
    asyncio.run(asyncio.wait_for(test(), HANG_S))


class Shared:
    """One server for the tests that do not need a process of their own (its start-up, its
    capabilities or arguments, a first run's timing, a file deleted while open): each test opens
    its own project's files, all closed after it, so that the next one sees none of them. Every
    run of a server analyses every open file, by absolute path, in its own project."""

    IDLE = "idle.py"

    def __init__(self, home: Path) -> None:
        (home / self.IDLE).write_text("X = 1\n", encoding="utf-8")
        self.home = home
        self.loop = asyncio.new_event_loop()  # the client's, from start to stop
        self.client = Client(home)
        self.run_async(self.client.start())

    def run_async(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(work, HANG_S))

    def run(self, root: Path, test: Callable[[Client], Awaitable[None]]) -> None:
        """``test(client)`` with names under ``root``."""
        self.client.move_to(root)
        try:
            self.run_async(test(self.client))
        finally:
            self.run_async(self.client.close_all(self.home / self.IDLE))

    def stop(self) -> int | None:
        try:
            return self.run_async(self.client.stop())
        finally:
            self.loop.close()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    server = Shared(tmp_path_factory.mktemp("server"))
    yield server
    assert server.stop() == 0


def test_diagnostics_are_the_cli_findings_with_their_call_paths(
    shared: Shared, project: Path
) -> None:
    expected = cli_findings(project, "pkg/main.py")
    assert {f["code"] for f in expected} == {"RTL101", "RTL201"}

    async def test(client: Client) -> None:
        client.open("pkg/main.py")
        found = await client.until("pkg/main.py", lambda d: len(d) > 0)
        assert sorted(where(d) for d in found) == sorted(
            (f["line"], f["col"], f["code"]) for f in expected
        )
        by_line = {d.range.start.line + 1: d for d in found}
        for f in expected:
            d = by_line[f["line"]]
            assert d.message == f["message"]
            assert d.source == "retracelint"
            assert d.severity == SEVERITY[f["severity"]]
            assert d.code_description.href.endswith(f"/rules/{f['code']}.md")
            jumps = [
                (
                    Path(r.location.uri.removeprefix("file://")).relative_to(project).as_posix(),
                    r.location.range.start.line + 1,
                )
                for r in d.related_information
            ]
            # Where it is made (the origin, when it is shown at a call in this file), each call on the
            # way (the first merged with it when at the origin), the jit site.
            made = f["origin"] or f
            origin = (made["path"], made["line"], made["col"])
            calls = [
                (s["path"], s["line"])
                for s in f["call_path"]
                if (s["path"], s["line"], s["col"]) != origin
            ]
            site = f["jit_site"]
            assert jumps == [(made["path"], made["line"]), *calls, (site["path"], site["line"])]
            assert d.related_information[-1].message.startswith("jit site: ")
            assert len(calls) >= 1  # the path crosses into pipeline.py

    shared.run(project, test)


def test_an_edit_in_one_file_removes_the_finding_it_caused_in_another(
    shared: Shared, project: Path
) -> None:
    main = (project / "pkg" / "main.py").read_text(encoding="utf-8")
    cause = "pipeline.prefix_total(données, n)"
    assert cause in main

    async def test(client: Client) -> None:
        client.open("pkg/pipeline.py")
        client.open("pkg/main.py")
        before = await client.until("pkg/pipeline.py", lambda d: len(d) > 0)
        assert [where(d) for d in before] == [(18, 26, "RTL101")]
        # Unsaved: the buffer, not the file on disk, decides.
        client.change("pkg/main.py", main.replace(cause, "pipeline.prefix_total(données, 8)"), 2)
        assert await client.until("pkg/pipeline.py", lambda d: not d) == ()
        client.change("pkg/main.py", main, 3)
        again = await client.until("pkg/pipeline.py", lambda d: len(d) > 0)
        assert [where(d) for d in again] == [(18, 26, "RTL101")]
        # A buffer that does not parse gets its RTL000 alone and the server goes on; the other
        # files keep the findings its last text that parsed made in them.
        client.change("pkg/main.py", main + "\ndef broken(:\n", 4)
        broken = await client.until("pkg/main.py", lambda d: any(x.code == "RTL000" for x in d))
        assert [where(d) for d in broken] == [(main.count("\n") + 2, 12, "RTL000")]
        assert [where(d) for d in client.diagnostics[client.uri("pkg/pipeline.py")]] == [
            (18, 26, "RTL101")
        ]
        # Fixed with the call that caused the finding gone: the finding goes with it.
        client.change("pkg/main.py", main.replace(cause, "pipeline.prefix_total(données, 8)"), 5)
        assert await client.until("pkg/pipeline.py", lambda d: not d) == ()
        # The run publishes file by file: wait for main.py's own diagnostics of that run too.
        await client.until("pkg/main.py", lambda d: "RTL000" not in {x.code for x in d})

    shared.run(project, test)


def test_noqa_quick_fix_and_hover(shared: Shared, project: Path) -> None:
    async def test(client: Client) -> None:
        client.open("pkg/main.py")
        # Three findings: the slice made here, the slice pipeline.py makes from this loop (shown at
        # its call here), and the static argument.
        found = await client.until("pkg/main.py", lambda d: len(d) == 3)
        rtl101 = next(d for d in found if d.code == "RTL101" and d.range.start.line + 1 == 14)
        actions = await client.code_actions("pkg/main.py", rtl101)
        noqa = next(a for a in actions if a.title == "Add '# noqa: RTL101'")
        (edit,) = noqa.edit.changes[client.uri("pkg/main.py")]
        lines = (project / "pkg" / "main.py").read_text(encoding="utf-8").splitlines()
        line = lines[edit.range.start.line]
        start, end = edit.range.start.character, edit.range.end.character
        fixed = line[:start] + edit.new_text + line[end:]
        assert fixed == "        pipeline.summarise(données[:n])  # expect: RTL101  # noqa: RTL101"
        # Applied, the finding goes.
        lines[edit.range.start.line] = fixed
        client.change("pkg/main.py", "\n".join(lines) + "\n", 2)
        after = await client.until("pkg/main.py", lambda d: len(d) == 2)
        assert sorted(where(x) for x in after) == [(15, 9, "RTL101"), (18, 34, "RTL201")]

        rtl201 = next(x for x in after if x.code == "RTL201")
        hover = await client.hover("pkg/main.py", rtl201.range.start)
        assert "RTL201" in hover.contents.value and "**Fix:**" in hover.contents.value
        nothing = await client.hover("pkg/main.py", types.Position(line=0, character=0))
        assert nothing is None

    shared.run(project, test)


def test_positions_are_sent_in_the_encoding_the_client_prefers(project: Path) -> None:
    """A client that prefers UTF-8 (as Neovim and Helix do) gets its columns in bytes: pygls agrees
    on the client's first choice, and the findings' columns (characters) are converted to it. Line 18,
    ``        pipeline.deepen(données, depth)``: ``depth`` starts after 33 characters, 34 bytes."""

    async def test() -> None:
        client = Client(project, encodings=["utf-8", "utf-16"])
        await client.start()
        client.open("pkg/main.py")
        found = await client.until("pkg/main.py", lambda d: len(d) == 3)
        rtl201 = next(d for d in found if d.code == "RTL201")
        assert (rtl201.range.start.line, rtl201.range.start.character) == (17, 34)
        assert rtl201.range.end.character == 34 + len("depth")
        actions = await client.code_actions("pkg/main.py", rtl201)
        noqa = next(a for a in actions if a.title == "Add '# noqa: RTL201'")
        (edit,) = noqa.edit.changes[client.uri("pkg/main.py")]
        line = (project / "pkg" / "main.py").read_text(encoding="utf-8").splitlines()[17]
        assert edit.range.start.character == len(line.rstrip().encode("utf-8"))
        assert await client.stop() == 0

    run(test)


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _frames(data: bytes) -> list[dict]:
    """Every message in ``data``; fails on anything else (standard output is the protocol's alone)."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        assert sep and head.startswith(b"Content-Length: "), data[:200]
        headers = dict(line.split(b": ", 1) for line in head.split(b"\r\n"))
        size = int(headers[b"Content-Length"])
        out.append(json.loads(rest[:size]))
        data = rest[size:]
    return out


def test_a_malformed_request_gets_an_error_and_shutdown_exits_cleanly(project: Path) -> None:
    """Raw JSON-RPC, as no client library sends parameters that do not fit the method."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"bogus": 1}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    done = subprocess.run(
        [*SERVER, "server"],
        cwd=project,
        input=b"".join(_frame(m) for m in messages),
        capture_output=True,
        timeout=HANG_S,
    )
    assert done.returncode == 0
    answers = {m["id"]: m for m in _frames(done.stdout) if "id" in m}
    assert answers[1]["result"]["serverInfo"]["name"] == "retracelint"
    assert answers[2]["error"]["code"] == -32602  # invalid params
    assert answers[3] == {"jsonrpc": "2.0", "id": 3, "result": None}


def test_without_pygls_the_command_says_what_to_install(tmp_path: Path) -> None:
    blocker = tmp_path / "pygls"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('no pygls here')\n")
    done = subprocess.run(
        [*SERVER, "server"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_S,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
    )
    assert done.returncode != 0
    assert done.stdout == ""
    assert "install retracelint[server]" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


KERNELS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def normalise(x, axes):
    return x - jnp.mean(x, axis=axes, keepdims=True)
"""

TRAIN = """\
from kernels import normalise


def evaluate(batches):
    for batch in batches:
        yield normalise(batch, axes=[0, 1])
"""


def test_the_fix_that_fix_makes_is_a_quick_fix(shared: Shared, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.retracelint]\n")
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "train.py").write_text(TRAIN)

    async def test(client: Client) -> None:
        client.open("train.py")
        (found,) = await client.until("train.py", lambda d: len(d) > 0)
        assert found.code == "RTL203"
        actions = await client.code_actions("train.py", found)
        fix = next(a for a in actions if a.is_preferred)
        assert fix.title.startswith("Fix RTL203")
        (edit,) = fix.edit.changes[client.uri("train.py")]
        assert (edit.range.start.line, edit.range.end.line) == (5, 6)
        assert edit.new_text == "        yield normalise(batch, axes=(0, 1))\n"
        assert [a.title for a in actions if not a.is_preferred] == ["Add '# noqa: RTL203'"]

    shared.run(tmp_path, test)


def test_an_analysis_that_fails_is_logged_and_the_server_goes_on(
    shared: Shared, tmp_path: Path
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.retracelint]\nselect = 5\n")
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "train.py").write_text(TRAIN)

    async def test(client: Client) -> None:
        client.open("train.py")

        async def logged() -> None:
            while not client.logs:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(logged(), HANG_S)
        assert client.logs == [
            f"retracelint: error: {tmp_path / 'pyproject.toml'}: option 'select':"
            " expected a list of strings, got 5"
        ]
        # Fixed, the next save analyses the project.
        (tmp_path / "pyproject.toml").write_text("[tool.retracelint]\n")
        client.lsp.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=client.uri("train.py"))
            )
        )
        (found,) = await client.until("train.py", lambda d: len(d) > 0)
        assert found.code == "RTL203"

    shared.run(tmp_path, test)


def test_every_open_unsaved_buffer_counts_not_only_the_one_edited(
    shared: Shared, project: Path
) -> None:
    main = (project / "pkg" / "main.py").read_text(encoding="utf-8")
    kernels = (project / "pkg" / "kernels.py").read_text(encoding="utf-8")
    cause = "pipeline.prefix_total(données, n)"

    async def test(client: Client) -> None:
        for name in ("pkg/pipeline.py", "pkg/main.py", "pkg/kernels.py"):
            client.open(name)
        await client.until(
            "pkg/pipeline.py", lambda d: [where(x) for x in d] == [(18, 26, "RTL101")]
        )
        # pipeline.py open: its finding is shown there, not at its call in main.py.
        shown = await client.until("pkg/main.py", lambda d: len(d) == 2)
        client.change("pkg/main.py", main.replace(cause, "pipeline.prefix_total(données, 8)"), 2)
        assert await client.until("pkg/pipeline.py", lambda d: not d) == ()
        # Another module edited, main.py still unsaved: its buffer, not the file on disk, counts.
        loop = "\n\ndef prefixes(x):\n    for n in range(1, 4):\n        total(x[:n])\n"
        client.change("pkg/kernels.py", kernels + loop, 2)
        made = await client.until("pkg/kernels.py", lambda d: len(d) == 1)
        assert where(made[0]) == (kernels.count("\n") + 5, 15, "RTL101")
        # A request answered after the run's diagnostics were all sent: they have arrived.
        await client.hover("pkg/main.py", types.Position(line=0, character=0))
        assert not client.diagnostics[client.uri("pkg/pipeline.py")]
        after = client.diagnostics[client.uri("pkg/main.py")]
        assert sorted(where(d) for d in after) == sorted(where(d) for d in shown)

    shared.run(project, test)


def test_a_file_deleted_while_open(project: Path) -> None:
    async def test() -> None:
        client = Client(project)
        await client.start()
        client.open("pkg/pipeline.py")
        client.open("pkg/main.py")
        await client.until("pkg/pipeline.py", lambda d: len(d) == 1)
        await client.until("pkg/main.py", lambda d: len(d) == 2)
        (project / "pkg" / "pipeline.py").unlink()
        expected = cli_findings(project, "pkg/main.py")  # the project without it
        client.lsp.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=client.uri("pkg/main.py"))
            )
        )
        # No longer a file of the project: nothing shown in it, nor through it in main.py.
        assert await client.until("pkg/pipeline.py", lambda d: not d) == ()
        found = await client.until("pkg/main.py", lambda d: len(d) == len(expected))
        assert sorted(where(d) for d in found) == sorted(
            (f["line"], f["col"], f["code"]) for f in expected
        )
        # Closed, it is gone; the server still answers.
        client.close("pkg/pipeline.py")
        assert await client.hover("pkg/main.py", types.Position(line=0, character=0)) is None
        assert await client.stop() == 0

    run(test)


def test_the_first_analysis_shows_its_progress(project: Path) -> None:
    main = (project / "pkg" / "main.py").read_text(encoding="utf-8")

    async def test() -> None:
        client = Client(project, progress=True)
        await client.start()
        client.open("pkg/main.py")
        await client.until("pkg/main.py", lambda d: len(d) == 3)
        (token,) = client.tokens
        assert {t for t, _ in client.reports} == {token}
        kinds = [value["kind"] for _, value in client.reports]
        assert kinds[0] == "begin" and kinds[-1] == "end" and set(kinds[1:-1]) == {"report"}
        assert client.reports[0][1]["title"] == "retracelint"
        reports = [value for _, value in client.reports[1:-1]]
        percents = [value["percentage"] for value in reports]
        assert percents == sorted(percents) and 0 < percents[-1] <= 100
        messages = [value["message"] for value in reports]
        # The project's four modules summarised, one at a time, then linked and checked.
        assert messages == [f"summarised {n}/4 files" for n in range(1, 5)] + [
            "linking",
            "checking",
        ]
        # Later runs are quick: no progress for them.
        cause = "pipeline.deepen(données, depth)"
        client.change("pkg/main.py", main.replace(cause, "pipeline.deepen(données, 2)"), 2)
        await client.until("pkg/main.py", lambda d: len(d) == 2)
        assert len(client.tokens) == 1 and len(client.reports) == len(kinds)
        assert await client.stop() == 0

    run(test)


def test_an_edit_stops_the_run_it_makes_stale(project: Path) -> None:
    main = (project / "pkg" / "main.py").read_text(encoding="utf-8")
    cause = "pipeline.deepen(données, depth)"

    async def test() -> None:
        client = Client(project)
        await client.start()
        # The change arrives while the first run (a new process: imports, four files) summarises.
        client.open("pkg/main.py")
        client.change("pkg/main.py", main.replace(cause, "pipeline.deepen(données, 2)"), 2)
        found = await client.until("pkg/main.py", lambda d: len(d) > 0)
        assert sorted(where(d)[2] for d in found) == ["RTL101", "RTL101"]  # no RTL201
        assert client.logs == ["retracelint: a newer edit stopped the analysis"]
        assert await client.stop() == 0

    run(test)


EXTRA = """\
import numpy as np

from pkg import pipeline


def sweep():
    x = np.ones(16)
    for n in range(1, 9):
        pipeline.summarise(x[:n])
"""


def cold(names: list[str]) -> dict[str, list[tuple]]:
    """What ``retracelint check --no-cache`` finds in each of ``names`` (run in the project)."""
    done = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", *names])
    assert done.exit_code in (0, 1), done.output
    out: dict[str, list[tuple]] = {name: [] for name in names}
    for f in json.loads(done.stdout):
        out[f["path"]].append((f["line"], f["col"], f["code"], f["message"]))
    return {name: sorted(found) for name, found in out.items()}


async def shows_cold_findings(
    client: Client, names: list[str], shown: dict[str, list[tuple]]
) -> dict[str, list[tuple]]:
    """Once the server shows in each of the open files ``names`` what a cold run finds there,
    that; it must not be what was ``shown`` before (each step changes what is shown)."""
    expected = cold(names)
    assert expected != shown
    for name in names:
        found = await client.until(
            name,
            lambda d, name=name: sorted((*where(x), x.message) for x in d) == expected[name],
        )
        assert found is not None
    return expected


def test_after_every_edit_the_open_files_show_what_a_cold_run_finds(
    shared: Shared, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edits one after another, each of one file as an editor saves it: a new file, a body of an
    imported module edited with what the others read of it kept (the server links that module
    alone), an imported module whose jit sites change (the whole project linked again), the new
    file edited, a file deleted. After each, every open file shows what ``retracelint check
    --no-cache`` finds in it on the same files, and that is not what it showed before."""
    monkeypatch.chdir(project)
    pipeline, kernels = project / "pkg" / "pipeline.py", project / "pkg" / "kernels.py"
    steps = [
        ("pkg/extra.py", EXTRA),
        ("pkg/pipeline.py", pipeline.read_text(encoding="utf-8").replace("x[:n]", "x[:8]")),
        (
            "pkg/kernels.py",
            kernels.read_text(encoding="utf-8").replace(
                '@partial(jax.jit, static_argnames=("depth",))', "@jax.jit"
            ),
        ),
        ("pkg/extra.py", EXTRA.replace("x[:n]", "x[:4]")),
        ("pkg/pipeline.py", None),  # deleted
    ]

    async def test(client: Client) -> None:
        names = ["pkg/main.py", "pkg/pipeline.py", "pkg/kernels.py"]
        for name in names:
            client.open(name)
        shown: dict[str, list[tuple]] = {}

        async def agree() -> None:
            nonlocal shown
            shown = await shows_cold_findings(client, names, shown)

        await agree()
        for version, (name, text) in enumerate(steps, 2):
            path = project / name
            if text is None:
                client.close(name)
                path.unlink()
                names.remove(name)
                client.change("pkg/main.py", (project / "pkg/main.py").read_text("utf-8"), 9)
            else:
                path.write_text(text, encoding="utf-8")
                if name in names:
                    client.change(name, text, version)
                else:
                    names.append(name)
                    client.open(name)
            await agree()

    shared.run(project, test)


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with ``edits`` (whole lines each, as the server makes a fix's) made, last first."""
    lines = text.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: e.range.start.line, reverse=True):
        assert edit.range.start.character == edit.range.end.character == 0
        lines[edit.range.start.line : edit.range.end.line] = [edit.new_text]
    return "".join(lines)


def two_module_project(root: Path) -> Path:
    """RTL204 in filters.py, whose fix also edits kernels.py (the jitted def): unsafe."""
    (root / "pyproject.toml").write_text("[tool.retracelint]\n")
    for name, text in closures.TWO_MODULES.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_fix_of_two_files_is_one_versioned_workspace_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = two_module_project(tmp_path)
    kernels = root / "kernels.py"

    async def test() -> dict[str, str]:
        client = Client(root, document_changes=True, server_args=("--unsafe-fixes",))
        await client.start()
        client.open("filters.py")
        (found,) = await client.until("filters.py", lambda d: len(d) > 0)
        assert found.code == "RTL204"

        async def fix() -> types.CodeAction | None:
            actions = await client.code_actions("filters.py", found)
            assert "Add '# noqa: RTL204'" in [a.title for a in actions]
            return next((a for a in actions if a.title.startswith("Fix RTL204")), None)

        action = await fix()
        assert action.title.endswith("(unsafe)") and not action.is_preferred
        assert action.edit.changes is None
        # Every file of the fix, the open one by its version, the other (not open) by none.
        by_uri = {c.text_document.uri: c for c in action.edit.document_changes}
        assert {uri: c.text_document.version for uri, c in by_uri.items()} == {
            client.uri("filters.py"): 1,
            client.uri("kernels.py"): None,
        }
        texts = {
            "filters.py": applied(closures.CHANNELS, by_uri[client.uri("filters.py")].edits),
            "kernels.py": applied(closures.KERNELS, by_uri[client.uri("kernels.py")].edits),
        }
        # kernels.py changed on disk since the analysis: the fix is planned from it as it is now,
        # refused where it no longer holds (a call there would miss the new arguments) ...
        kernels.write_text(
            closures.KERNELS + "\n\ndef smooth(s):\n    return run_filter(s, kernel=max)\n"
        )
        assert await fix() is None
        # ... and made on the new text where it still does.
        moved = "# filters for the sweep\n" + closures.KERNELS
        kernels.write_text(moved, encoding="utf-8")
        action = await fix()
        (edit,) = (
            c for c in action.edit.document_changes if c.text_document.uri.endswith("kernels.py")
        )
        assert applied(moved, edit.edits) == "# filters for the sweep\n" + texts["kernels.py"]
        # Open with unsaved text: the fix edits the buffer, by its version.
        unsaved = "# unsaved\n# note\n" + closures.KERNELS
        client.open("kernels.py", unsaved)
        action = await fix()
        (edit,) = (
            c
            for c in action.edit.document_changes
            if c.text_document.version == 1 and c.text_document.uri == client.uri("kernels.py")
        )
        assert applied(unsaved, edit.edits) == "# unsaved\n# note\n" + texts["kernels.py"]
        assert await client.stop() == 0
        return texts

    texts = asyncio.run(asyncio.wait_for(test(), HANG_S))
    # The texts --fix --unsafe-fixes writes.
    kernels.write_text(closures.KERNELS, encoding="utf-8")
    monkeypatch.chdir(root)
    done = CliRunner().invoke(main, ["check", "--no-cache", "--fix", "--unsafe-fixes", "."])
    assert "(1 fixed, 0 remaining)" in done.output, done.output
    assert texts == {name: (root / name).read_text(encoding="utf-8") for name in texts}
    assert texts == {"filters.py": closures.CHANNELS_FIXED, "kernels.py": closures.KERNELS_FIXED}


@pytest.mark.parametrize(
    ("document_changes", "server_args"),
    [(False, ("--unsafe-fixes",)), (True, ())],
    ids=["client-without-documentChanges", "server-without-unsafe-fixes"],
)
def test_a_fix_of_two_files_is_not_offered_where_it_cannot_be_whole_or_is_not_allowed(
    tmp_path: Path, document_changes: bool, server_args: tuple[str, ...]
) -> None:
    root = two_module_project(tmp_path)

    async def test() -> None:
        client = Client(root, document_changes=document_changes, server_args=server_args)
        await client.start()
        client.open("filters.py")
        (found,) = await client.until("filters.py", lambda d: len(d) > 0)
        actions = await client.code_actions("filters.py", found)
        assert [a.title for a in actions] == ["Add '# noqa: RTL204'"]
        assert await client.stop() == 0

    run(test)


# Each check of the whole project looks at the functions each module gives it (those that clear
# jax's caches, those that carry a value from call to call), kept between runs while the module's
# summary is the same. Here each finding is made in a file the edits leave as it is, by an edit of
# another: helpers.refit() clears the caches (RTL302 at the clear, once main.py's loop calls it
# beside a jitted step), and advance.simulate carries a clock that starts float32 while the data's
# precision, from grid.py, is float64 under x64 (RTL402 in advance.py, until grid.py makes float32).
CARRIED_FILES = {
    "pyproject.toml": '[project]\nname = "sim"\n',
    "helpers.py": """\
import gc

import jax


def refit():
    gc.collect()
    jax.clear_caches()
""",
    "advance.py": """\
import jax
import jax.numpy as jnp


@jax.jit
def advance(u, t, dt):
    return u - dt * jnp.gradient(u), t + dt


def simulate(grid, steps):
    u = grid.values()
    t = jnp.zeros((), jnp.float32)
    dt = jnp.full((), 1e-3, dtype=u.dtype)
    for _ in range(steps):
        u, t = advance(u, t, dt)
    return u, t
""",
    "grid.py": """\
import jax.numpy as jnp
import numpy as np


class Grid:
    def __init__(self, n):
        self.n = n

    def values(self):
        return jnp.asarray(np.linspace(0.0, 1.0, self.n))
""",
    "main.py": """\
import jax

jax.config.update("jax_enable_x64", True)

import helpers  # noqa: E402
from advance import advance, simulate  # noqa: E402
from grid import Grid  # noqa: E402

if __name__ == "__main__":
    u, t = simulate(Grid(16), 4)
    for _ in range(3):
        u, t = advance(u, t, t)
""",
}


def test_an_edit_of_one_module_changes_a_whole_project_finding_in_a_file_left_as_it_is(
    shared: Shared,
    tmp_path: Path,
) -> None:
    loop = "        u, t = advance(u, t, t)\n"
    main_text = CARRIED_FILES["main.py"].replace(loop, loop + "        helpers.refit()\n")
    clearing = CARRIED_FILES["helpers.py"]
    quiet = clearing.replace("jax.clear_caches()", "pass")
    files = {**CARRIED_FILES, "main.py": main_text, "helpers.py": quiet}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    grid_text = CARRIED_FILES["grid.py"]
    float32 = grid_text.replace("self.n))", "self.n, dtype=np.float32))")
    clock, clear = (12, 9, "RTL402"), (8, 5, "RTL302")

    async def test(client: Client) -> None:
        for name in ("main.py", "helpers.py", "advance.py", "grid.py"):
            client.open(name)
        assert [where(d) for d in await client.until("advance.py", bool)] == [clock]
        assert await client.until("helpers.py", lambda d: True) == ()
        # refit() now clears the caches, in the loop of main.py that calls a jitted step.
        client.change("helpers.py", clearing, 2)
        assert [where(d) for d in await client.until("helpers.py", bool)] == [clear]
        assert [where(d) for d in client.diagnostics[client.uri("advance.py")]] == [clock]
        # grid.py makes float32 data: the clock advance.py carries, a file left as it is, no
        # longer widens; then float64 again, and it does.
        client.change("grid.py", float32, 2)
        assert await client.until("advance.py", lambda d: not d) == ()
        client.change("grid.py", grid_text, 3)
        assert [where(d) for d in await client.until("advance.py", bool)] == [clock]
        # What the open buffers hold is what a cold run of the files finds.
        (tmp_path / "helpers.py").write_text(clearing, encoding="utf-8")
        cold = {
            (f["path"], f["line"], f["col"], f["code"])
            for name in ("helpers.py", "advance.py")
            for f in cli_findings(tmp_path, name)
        }
        assert cold == {("helpers.py", *clear), ("advance.py", *clock)}
        assert [where(d) for d in client.diagnostics[client.uri("helpers.py")]] == [clear]
        # refit() clears no more.
        client.change("helpers.py", quiet, 3)
        assert await client.until("helpers.py", lambda d: not d) == ()

    shared.run(tmp_path, test)


SMOOTHING = '''\
import jax.numpy as jnp
from jax import lax


class Smoother:
    """Exponential smoothing of a series, at one rate."""

    def __init__(self, rate):
        self.rate = rate

    def smooth(self, xs):
        def body(i, acc):
            return acc * self.rate + xs[i]

        return lax.fori_loop(0, xs.shape[0], body, jnp.zeros(()))
'''

SMOOTHING_ONCE = '''\
import jax.numpy as jnp
from jax import lax


def _decay(i, carry):
    acc, xs, rate = carry
    return acc * rate + xs[i], xs, rate


class Smoother:
    """Exponential smoothing of a series, at one rate."""

    def __init__(self, rate):
        self.rate = rate

    def smooth(self, xs):
        return lax.fori_loop(0, xs.shape[0], _decay, (jnp.zeros(()), xs, self.rate))[0]
'''

SWEEP = """\
import numpy as np

from smoothing import Smoother


def sweep(rates):
    xs = np.ones(16)
    out = []
    for rate in rates:
        out.append(Smoother(rate).smooth(xs))
    return out
"""

RUN = """\
from sweep import sweep

RATES = (0.1, 0.5, 0.9)


def main():
    return sweep(RATES)
"""


def test_an_edit_of_a_script_or_a_library_changes_what_the_checks_pick_from_it(
    shared: Shared,
    tmp_path: Path,
) -> None:
    """The checks of the whole project pick what they look at module by module and keep each
    module's picks while its summary is the same (``session.Picked``): a script's top level
    (whose calls run eagerly what they reach), a jit site or lax body made anew. An eager
    ``lax.fori_loop`` of a nested def re-traces per call (RTL301 in smoothing.py, a file left
    as it is) only once run.py runs the sweep as a script; the body defined once, no finding;
    nested again, the finding again; the script's guard running nothing, none."""
    (tmp_path / "pyproject.toml").write_text("[tool.retracelint]\n", encoding="utf-8")
    files = {"smoothing.py": SMOOTHING, "sweep.py": SWEEP, "run.py": RUN}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    script = RUN + '\n\nif __name__ == "__main__":\n    main()\n'
    idle = RUN + '\n\nif __name__ == "__main__":\n    print(RATES)\n'
    nested = SMOOTHING.replace("acc * self.rate + xs[i]", "acc * self.rate + 2 * xs[i]")
    rebuilt = [(15, 46, "RTL301")]

    async def test(client: Client) -> None:
        for name in files:
            client.open(name)
        assert [where(d) for d in await client.until("run.py", lambda d: True)] == []
        assert not client.diagnostics[client.uri("smoothing.py")]
        client.change("run.py", script, 2)
        assert [where(d) for d in await client.until("smoothing.py", bool)] == rebuilt
        client.change("smoothing.py", SMOOTHING_ONCE, 2)
        assert not await client.until("smoothing.py", lambda d: not d)
        client.change("smoothing.py", nested, 3)
        assert [where(d) for d in await client.until("smoothing.py", bool)] == rebuilt
        # What the open buffers hold is what a cold run of the files finds.
        for name, text in (("run.py", script), ("smoothing.py", nested)):
            (tmp_path / name).write_text(text, encoding="utf-8")
        assert [
            (f["path"], f["line"], f["col"], f["code"]) for f in cli_findings(tmp_path, ".")
        ] == [("smoothing.py", *rebuilt[0])]
        client.change("run.py", idle, 3)
        assert not await client.until("smoothing.py", lambda d: not d)

    shared.run(tmp_path, test)


OPS = """\
from pkg import kernels


def total2(x):
    return kernels.total(x)
"""


def test_files_made_ignored_renamed_and_deleted_on_disk_while_the_server_runs(
    shared: Shared, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Changes made on disk, not in the editor (a checkout, a shell, a generator), each followed by
    an edit of an open file: a module's new package created, the package git-ignored, renamed
    away, renamed back, its module deleted. After each, the open files show what a cold run finds
    (the server reuses the listing of each folder that did not change: never a stale one)."""
    monkeypatch.chdir(project)
    main_py = project / "pkg" / "main.py"
    text = main_py.read_text(encoding="utf-8").replace(
        "from pkg import kernels, pipeline\n",
        "from pkg import kernels, pipeline\nfrom pkg.ops import extra\n",
    )
    text += "\n\ndef more():\n    x = np.ones(64)\n    for n in range(8, 64, 8):\n        extra.total2(x[:n])\n"
    main_py.write_text(text, encoding="utf-8")
    ops = project / "pkg" / "ops"

    def create() -> None:
        ops.mkdir()
        (ops / "__init__.py").write_text("", encoding="utf-8")
        (ops / "extra.py").write_text(OPS, encoding="utf-8")

    steps = [
        create,
        lambda: (project / ".gitignore").write_text("__pycache__/\nops/\n", encoding="utf-8"),
        lambda: (project / ".gitignore").write_text("__pycache__/\n", encoding="utf-8"),
        lambda: ops.rename(project / "pkg" / "ops_old"),
        lambda: (project / "pkg" / "ops_old").rename(ops),
        lambda: (ops / "extra.py").unlink(),
    ]

    async def test(client: Client) -> None:
        names = ["pkg/main.py", "pkg/pipeline.py"]
        for name in names:
            client.open(name)
        shown = await shows_cold_findings(client, names, {})
        for version, step in enumerate(steps, 2):
            step()
            client.change("pkg/main.py", text + "\n" * version, version)
            shown = await shows_cold_findings(client, names, shown)

    shared.run(project, test)


STATIC_PARTS = Path(__file__).parent / "fixtures" / "static_parts_made_by_callers"


def test_a_module_whose_calls_moved_still_gives_the_objects_they_make(
    shared: Shared, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks find a call by its place in its file (``Symbols.call_span``: what class the
    object ``boundaries.with_boundary`` returns is, made by its call of ``Bounded``), and a run
    keeps each module's calls by place while the module's summary is the same. Lines added above
    the helper move its calls; the edit of main.py after it (one finding fewer) still shows the
    one made through the moved call, as a cold run does; the pytree's field made a leaf in
    boundaries.py takes the finding away from main.py, a file left as it is, and made static
    again, brings it back."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.retracelint]\n", encoding="utf-8")
    for path in STATIC_PARTS.glob("*.py"):
        shutil.copy(path, tmp_path / path.name)
    helper, main_text = (tmp_path / "boundaries.py").read_text(), (tmp_path / "main.py").read_text()
    moved = helper.replace("\n\n@dataclass", "\n\ndef _twice(x):\n    return 2 * x\n\n\n@dataclass")
    registration = 'data_fields=["values"], meta_fields=["condition"]'
    assert registration in moved
    leaf = moved.replace(registration, 'data_fields=["values", "condition"], meta_fields=[]')
    residual = "        out.append(residual_of(lambda x: x * 0.5, values))  # expect: RTL204\n"
    assert residual in main_text
    names = ["main.py", "boundaries.py"]

    async def test(client: Client) -> None:
        for name in names:
            client.open(name)
        shown = await shows_cold_findings(client, names, {})
        assert [line for line, *_ in shown["main.py"]] == [35, 48]
        steps = [
            ("boundaries.py", moved, 2, None),
            ("main.py", main_text.replace(residual, ""), 2, [35]),
            ("boundaries.py", leaf, 3, []),
            ("boundaries.py", moved, 4, [35]),
        ]
        for name, text, version, lines in steps:
            (tmp_path / name).write_text(text, encoding="utf-8")
            client.change(name, text, version)
            if lines is not None:  # the edit that moves the calls changes no finding
                shown = await shows_cold_findings(client, names, shown)
                assert [line for line, *_ in shown["main.py"]] == lines

    shared.run(tmp_path, test)
