"""What the linker resolves a call to, as ``retracelint graph --calls --json`` prints it, on code split
over modules as users write it: the Python semantics of each import form, class hierarchy, attribute
and container that holds a function (and what it must not guess)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main


def _graph(root: Path, files: dict[str, str]) -> dict[str, set[str]]:
    """The call graph of the project made of ``files``: each function's callees."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = CliRunner().invoke(main, ["graph", "--calls", "--json", str(root)])
    assert result.exit_code == 0, result.output
    return {caller: set(callees) for caller, callees in json.loads(result.output).items()}


def test_super_init_calls_the_next_class_of_each_subclass_in_one_module(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "nets/__init__.py": "",
            "nets/base.py": """
                class Module:
                    def __init__(self, name):
                        self.name = name
            """,
            "nets/layers.py": """
                from nets.base import Module


                class Dense(Module):
                    def __init__(self, width):
                        super().__init__("dense")
                        self.width = width


                class Residual(Dense):
                    def __init__(self, width):
                        super().__init__(width)
            """,
            "main.py": "from nets.layers import Residual\n\nblock = Residual(64)\n",
        },
    )
    assert graph["nets.layers.Residual.__init__"] == {"nets.layers.Dense.__init__"}
    assert graph["nets.layers.Dense.__init__"] == {"nets.base.Module.__init__"}


def test_a_class_nested_in_another_is_a_base_and_an_attribute(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "config.py": """
                class Trainer:
                    class Options:
                        @staticmethod
                        def defaults():
                            return {"lr": 0.1}

                        def validate(self):
                            return True
            """,
            "main.py": """
                from config import Trainer


                class FastOptions(Trainer.Options):
                    def speed(self):
                        return 2


                options = FastOptions()
                options.validate()
                settings = Trainer.Options.defaults()
            """,
        },
    )
    assert graph["main"] == {
        "config.Trainer.Options.validate",
        "config.Trainer.Options.defaults",
    }
