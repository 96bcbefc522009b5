"""What users see for three causes found on unread code (round 15 of the precision benchmark,
issue 36), each on a project of several modules: the carry a lax loop gives back has the structure
it started with; a crop resized to a fixed size is of that size, however large the crop was; and a
list filled anew by each call of a helper says that its length differs, not that it grows."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding

FIXTURES = Path(__file__).parent / "fixtures"


def _run(root: Path) -> list[Finding]:
    return analyse([str(root)], Settings(cache=False, select=("RTL",))).findings


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")


def test_lax_loops_give_back_the_structure_their_carry_started_with() -> None:
    """A tuple runner state scanned by a jitted update, and a dict of statistics fori-looped, go on
    to other jitted functions as the pytrees they started as (JAX traces each once); a Python float
    that a jitted fori_loop body gives back strongly typed is one RTL401, told where it starts, and
    so is one a lambda body gives back strong to a jitted logger; one a lambda keeps weak is not."""
    found = _run(FIXTURES / "lax_loop_carries_keep_their_pytree")
    assert _where(found) == [("main.py", 31, "RTL401"), ("main.py", 38, "RTL401")]
    body, logged = found
    assert body.message.startswith(
        "ret starts as a weakly typed scalar here and is a strongly typed array once"
        " discount_step() returns it, so jitted 'discount_step' traces again"
    )
    assert "so jitted 'log_return' re-traces" in logged.message


def test_crops_resized_to_a_fixed_size_are_batched_by_their_number() -> None:
    """Crops of every detection, each resized to the configured size before they are stacked: only
    their number reaches the classifier, a list rebuilt per frame; a crop scaled by a factor keeps
    its own size."""
    found = _run(FIXTURES / "crops_resized_before_a_batch")
    assert _where(found) == [("main.py", 23, "RTL102"), ("main.py", 37, "RTL101")]
    crops, scaled = found
    assert crops.message.startswith(
        "crops.append(crop) fills a list rebuilt per call of crops_of() with a length that"
        " differs in the loop at line 28, so jitted 'classifier' re-traces"
    )
    assert "jitted 'detector' re-traces" in scaled.message


def test_a_size_computed_per_iteration_resizes_to_a_new_shape(tmp_path: Path) -> None:
    """The size given to a resize is the result's: one that grows with the step is RTL105 where the
    image is resized; a list kept across the loop that feeds a jit still grows in that loop."""
    _write(
        tmp_path,
        {
            "pyramid.py": "import jax\n\n\n"
            "def level(image, step):\n"
            "    side = 16 * (step + 1)\n"
            "    return jax.image.resize(image, (side, side, 3), 'bilinear')\n",
            "main.py": "import jax\nimport jax.numpy as jnp\nfrom pyramid import level\n\n\n"
            "@jax.jit\ndef embed(x):\n    return x.mean()\n\n\n"
            "def run(image, steps):\n"
            "    seen = []\n"
            "    for step in range(steps):\n"
            "        embed(level(image, step))\n"
            "        seen.append(step)\n"
            "        embed(jnp.asarray(seen))\n",
        },
    )
    found = _run(tmp_path)
    assert _where(found) == [("main.py", 15, "RTL102"), ("pyramid.py", 6, "RTL105")]
    grows, resized = found
    assert grows.message.startswith("seen.append(step) grows in the loop at line 13, ")
    assert resized.message.startswith("jax.image.resize(image, (side, side, 3), 'bil... changes")
    assert "shape in the loop at main.py:13, so jitted 'embed' re-traces" in resized.message
