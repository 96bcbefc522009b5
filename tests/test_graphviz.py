"""Mermaid and Graphviz DOT pictures of call paths: origin → each call → jit site."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from limits import HANG_S

from retracelint.graphviz import build_graph, dot, mermaid, mermaid_all
from retracelint.model import Finding, JitSite, Location, PathStep

APPLY = JitSite(
    "trainer.model.apply_model", "apply_model", Location("src/trainer/model.py", 9, 1), "jax.jit"
)


def three_modules_deep() -> Finding:
    return Finding(
        code="RTL101",
        message="tokens[:, :seq_len] changes shape on every iteration",
        location=Location("src/trainer/loop.py", 22, 33, 22, 52),
        jit_site=APPLY,
        parameter="tokens",
        call_path=(
            PathStep(
                "trainer.loop.run_epoch", "train_step", Location("src/trainer/loop.py", 22, 16)
            ),
            PathStep(
                "trainer.steps.train_step", "apply_model", Location("src/trainer/steps.py", 31, 12)
            ),
        ),
    )


def other_caller() -> Finding:
    """A second path into the same jit site, from the evaluation loop."""
    return Finding(
        code="RTL104",
        message="tokens[mask] has a data-dependent shape",
        location=Location("src/trainer/evaluate.py", 14, 22),
        jit_site=APPLY,
        parameter="tokens",
        call_path=(
            PathStep(
                "trainer.evaluate.run_eval",
                "apply_model",
                Location("src/trainer/evaluate.py", 15, 9),
            ),
        ),
    )


MERMAID_THREE = """\
flowchart TD
    n0["trainer.loop.run_epoch (src/trainer/loop.py:22)"]:::origin
    n1["trainer.steps.train_step (src/trainer/steps.py:31)"]
    n2["trainer.model.apply_model (src/trainer/model.py:9)"]:::jit
    n0 -->|"RTL101: train_step"| n1
    n1 -->|"apply_model"| n2
    classDef origin fill:#fde2e1,stroke:#c0392b
    classDef jit fill:#e1ecfd,stroke:#2c5aa0
"""


def test_mermaid_draws_origin_each_call_and_the_jit_site() -> None:
    assert mermaid(three_modules_deep()) == MERMAID_THREE


def test_mermaid_paths_relative_to_root(tmp_path) -> None:
    finding = three_modules_deep()
    absolute = replace(
        finding,
        location=replace(finding.location, path=str(tmp_path / finding.location.path)),
        jit_site=replace(
            APPLY, location=replace(APPLY.location, path=str(tmp_path / APPLY.location.path))
        ),
        call_path=tuple(
            replace(s, location=replace(s.location, path=str(tmp_path / s.location.path)))
            for s in finding.call_path
        ),
    )
    assert mermaid(absolute, root=tmp_path) == MERMAID_THREE


def test_mermaid_escapes_labels() -> None:
    finding = Finding(
        code="RTL301",
        message="jax.jit(lambda) in a loop",
        location=Location('src/we"ird #1/ev`al.py', 12, 16),
        jit_site=JitSite(
            "trainer.eval.evaluate.<locals>.<lambda>",
            "<lambda>",
            Location("src/e.py", 3, 1),
            "jax.jit",
        ),
        call_path=(
            PathStep(
                "trainer.eval.evaluate", "jit|lambda[0]", Location('src/we"ird #1/ev`al.py', 12, 16)
            ),
        ),
    )
    out = mermaid(finding)
    assert out.splitlines()[1:4] == [
        '    n0["trainer.eval.evaluate (src/we#quot;ird #35;1/ev#96;al.py:12)"]:::origin',
        '    n1["trainer.eval.evaluate.#lt;locals#gt;.#lt;lambda#gt; (src/e.py:3)"]:::jit',
        '    n0 -->|"RTL301: jit#124;lambda#91;0#93;"| n1',
    ]
    # Between the delimiters no raw quote, backtick, angle bracket or pipe is left for Mermaid to misread.
    for line in out.splitlines()[1:4]:
        inner = line.split('"')[1]
        assert not set(inner) & set('"`<>|[]')


def test_single_place_finding_is_one_node() -> None:
    finding = Finding("RTL000", "could not parse", Location("src/broken.py", 3, 10))
    assert mermaid(finding).splitlines()[:2] == [
        "flowchart TD",
        '    n0["src/broken.py:3"]:::origin',
    ]
    assert "-->" not in mermaid(finding)


def test_finding_without_path_goes_straight_to_the_jit_site() -> None:
    finding = Finding(
        "RTL203",
        "static parameter 'shape' gets a list",
        Location("src/run.py", 7, 20),
        jit_site=JitSite(
            "run.resize", "resize", Location("src/ops.py", 2, 1), "jax.jit", ("shape",)
        ),
    )
    lines = mermaid(finding).splitlines()
    assert lines[1] == '    n0["src/run.py:7"]:::origin'
    assert lines[3] == '    n0 -->|"RTL203: resize"| n1'


def test_shared_jit_site_is_one_node_in_the_combined_graph() -> None:
    graph = build_graph([three_modules_deep(), other_caller()])
    assert [n.label for n in graph.nodes] == [
        "trainer.loop.run_epoch (src/trainer/loop.py:22)",
        "trainer.steps.train_step (src/trainer/steps.py:31)",
        "trainer.model.apply_model (src/trainer/model.py:9)",
        "src/trainer/evaluate.py:14",
        "trainer.evaluate.run_eval (src/trainer/evaluate.py:15)",
    ]
    assert graph.edges == [
        (0, 1, "RTL101: train_step"),
        (1, 2, "apply_model"),
        (3, 4, "RTL104"),
        (4, 2, "apply_model"),
    ]
    assert mermaid_all([three_modules_deep(), other_caller()]).count(":::jit") == 1


DOT_BOTH = """\
digraph retracelint {
    rankdir=TB;
    node [fontname="Helvetica"];
    edge [fontname="Helvetica", fontsize=10];
    n0 [label="trainer.loop.run_epoch (src/trainer/loop.py:22)", shape=box, style="rounded,filled", fillcolor="#fde2e1", color="#c0392b"];
    n1 [label="trainer.steps.train_step (src/trainer/steps.py:31)", shape=box, style=rounded];
    n2 [label="trainer.model.apply_model (src/trainer/model.py:9)", shape=box, style="filled,bold", fillcolor="#e1ecfd", color="#2c5aa0"];
    n3 [label="src/trainer/evaluate.py:14", shape=box, style="rounded,filled", fillcolor="#fde2e1", color="#c0392b"];
    n4 [label="trainer.evaluate.run_eval (src/trainer/evaluate.py:15)", shape=box, style=rounded];
    n0 -> n1 [label="RTL101: train_step"];
    n1 -> n2 [label="apply_model"];
    n3 -> n4 [label="RTL104"];
    n4 -> n2 [label="apply_model"];
}
"""


def test_dot_of_all_findings() -> None:
    assert dot([three_modules_deep(), other_caller()]) == DOT_BOTH


def test_dot_escapes_quotes_backslashes_and_newlines() -> None:
    finding = replace(
        other_caller(),
        call_path=(PathStep('m.f"\\x', 'call\n"g"', Location("C:\\src\\evaluate.py", 15, 9)),),
        location=Location("C:\\src\\evaluate.py", 15, 22),
    )
    lines = dot([finding]).splitlines()
    assert lines[4].startswith('    n0 [label="m.f\\"\\\\x (C:\\\\src\\\\evaluate.py:15)", ')
    assert lines[6] == '    n0 -> n1 [label="RTL104: call\\n\\"g\\""];'


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_accepts_the_output() -> None:
    weird = replace(
        other_caller(), call_path=(PathStep('m.f"\\x', 'call\n"g"', Location("src/e v.py", 15, 9)),)
    )
    proc = subprocess.run(
        ["dot", "-Tsvg"],
        input=dot([three_modules_deep(), other_caller(), weird]),
        capture_output=True,
        text=True,
        timeout=HANG_S,
    )
    assert proc.returncode == 0, proc.stderr
    assert "trainer.model.apply_model (src/trainer/model.py:9)" in proc.stdout


def test_graph_calls_json_prints_the_whole_linked_call_graph_in_pycgs_format(
    tmp_path: Path,
) -> None:
    from click.testing import CliRunner

    from retracelint.cli import main

    (tmp_path / "helpers.py").write_text(
        "def norm(x):\n    return x\n\n\ndef scale(x):\n    def inner(v):\n        return norm(v)\n"
        "    return inner(x)\n",
        encoding="utf-8",
    )
    (tmp_path / "main.py").write_text(
        "import helpers\n\n\nclass Model:\n    def __init__(self):\n        self.w = 1\n\n"
        "    def apply(self, x):\n        return helpers.scale(x)\n\n\nm = Model()\nm.apply(2)\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["graph", "--calls", "--json", str(tmp_path)])
    assert result.exit_code == 0, result.output
    graph = json.loads(result.output)
    assert graph["main"] == ["main.Model.__init__", "main.Model.apply"]
    assert graph["main.Model.apply"] == ["helpers.scale"]
    assert graph["helpers.scale"] == ["helpers.scale.inner"]
    assert graph["helpers.scale.inner"] == ["helpers.norm"]
    assert graph["helpers.norm"] == [] and graph["helpers"] == []
    # --dot draws the same graph in Graphviz DOT: a node per function, an edge per call.
    drawn = CliRunner().invoke(main, ["graph", "--calls", "--dot", str(tmp_path)])
    assert drawn.exit_code == 0, drawn.output
    assert drawn.output.startswith("digraph calls {\n") and drawn.output.endswith("}\n")
    nodes = set(re.findall(r'^    "([^"]+)";$', drawn.output, re.M))
    edges = re.findall(r'^    "([^"]+)" -> "([^"]+)";$', drawn.output, re.M)
    assert nodes == set(graph)
    assert edges == [(caller, callee) for caller, callees in graph.items() for callee in callees]
    if shutil.which("dot"):
        svg = subprocess.run(
            ["dot", "-Tsvg"], input=drawn.output, capture_output=True, text=True, timeout=HANG_S
        )
        assert svg.returncode == 0, svg.stderr
    both = CliRunner().invoke(main, ["graph", "--calls", "--dot", "--json", str(tmp_path)])
    assert (both.exit_code, both.stdout) == (2, "")
    assert both.stderr == "retracelint: error: --json and --dot are two formats: give one\n"


def test_graph_calls_json_links_a_project_summarised_by_worker_processes(tmp_path: Path) -> None:
    """Workers hand back summaries as heads; a parameter whose default is a function needs the
    whole summary of its callers, which the graph's linking must be able to load."""
    from click.testing import CliRunner

    from retracelint.cli import main

    (tmp_path / "pyproject.toml").write_text("[tool.retracelint]\njobs = 2\n", encoding="utf-8")
    (tmp_path / "hub.py").write_text(
        "def plain(x):\n    return x\n\n\ndef run(x, step=plain):\n    return step(x)\n",
        encoding="utf-8",
    )
    for i in range(30):
        (tmp_path / f"user{i}.py").write_text(
            f"import hub\n\n\ndef use{i}(x):\n    return hub.run(x)\n", encoding="utf-8"
        )
    result = CliRunner().invoke(main, ["graph", "--calls", "--json", str(tmp_path)])
    assert result.exit_code == 0, result.output
    graph = json.loads(result.output)
    assert graph["hub.run"] == ["hub.plain"]
    assert graph["user7.use7"] == ["hub.run"]
