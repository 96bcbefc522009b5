"""What the linker resolves a call to, as ``retracelint graph --calls --json`` prints it, on code split
over modules as users write it: the Python semantics of each import form, class hierarchy, attribute
and container that holds a function (and what it must not guess)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse


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


def test_a_function_stored_on_self_is_what_calling_the_attribute_calls(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "updates.py": """
                def sgd(params, grads):
                    return params - grads


                def adam(params, grads):
                    return params - 0.1 * grads
            """,
            "trainer.py": """
                from updates import sgd


                class Trainer:
                    def __init__(self, update=sgd):
                        self.update = update
                        self.log = self._print

                    def _print(self, message):
                        print(message)

                    def fit(self, params, grads):
                        params = self.update(params, grads)
                        self.log("fitted")
                        return params
            """,
            "main.py": """
                from trainer import Trainer
                from updates import adam

                trainer = Trainer(adam)
                trainer.fit(1.0, 0.5)
                trainer.log("done")
            """,
        },
    )
    assert graph["trainer.Trainer.fit"] == {"updates.adam", "trainer.Trainer._print"}
    assert graph["main"] == {
        "trainer.Trainer.__init__",
        "trainer.Trainer.fit",
        "trainer.Trainer._print",
    }


def test_self_attribute_a_base_class_lacks_is_its_subclasses(tmp_path: Path) -> None:
    """``self.step()`` in a base class without ``step``: ``self`` is an instance of a subclass. The
    functions subclasses store and the methods they define are all it may call (``reset``: each
    subclass's own; which subclass each caller has is not known where the call is)."""
    graph = _graph(
        tmp_path,
        {
            "envs/__init__.py": "",
            "envs/base.py": """
                class Env:
                    def run(self, n):
                        self.reset()
                        for _ in range(n):
                            self.step()
                            self.on_step()
            """,
            "envs/grid.py": """
                from envs.base import Env


                class Grid(Env):
                    def __init__(self):
                        self.on_step = self._draw

                    def reset(self):
                        pass

                    def step(self):
                        pass

                    def _draw(self):
                        pass
            """,
            "envs/maze.py": """
                from envs.base import Env


                class Maze(Env):
                    def __init__(self):
                        self.on_step = self._count

                    def reset(self):
                        pass

                    def _count(self):
                        pass
            """,
            "main.py": """
                from envs.grid import Grid
                from envs.maze import Maze

                Grid().run(10)
                Maze().run(10)
            """,
        },
    )
    assert graph["envs.base.Env.run"] == {
        "envs.grid.Grid.reset",
        "envs.maze.Maze.reset",
        "envs.grid.Grid.step",
        "envs.grid.Grid._draw",
        "envs.maze.Maze._count",
    }


def test_a_method_of_a_module_level_instance_imported_through_a_package(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "metrics/__init__.py": "from .registry import REGISTRY\n",
            "metrics/registry.py": """
                class Registry:
                    def __init__(self):
                        self.names = []

                    def register(self, name):
                        self.names.append(name)


                REGISTRY = Registry()
            """,
            "main.py": """
                from metrics import REGISTRY


                def setup():
                    REGISTRY.register("accuracy")
            """,
        },
    )
    assert graph["main.setup"] == {"metrics.registry.Registry.register"}


def test_names_a_star_import_binds(tmp_path: Path) -> None:
    """``from m import *`` binds what ``m.__all__`` lists, else its public names; a later one binds
    over an earlier one; a name it does not bind is not linked to ``m``."""
    graph = _graph(
        tmp_path,
        {
            "ops/__init__.py": "from .activations import *\nfrom .losses import *\n",
            "ops/activations.py": """
                __all__ = ["relu", "gelu"]
                __all__ += ["elu"]


                def relu(x):
                    return x


                def elu(x):
                    return x


                def gelu(x):
                    return x


                def swish(x):
                    return x
            """,
            "ops/losses.py": """
                def gelu(x):
                    return x


                def mse(a, b):
                    return a - b


                def _reduce(x):
                    return x
            """,
            "model.py": """
                import ops
                from ops import *


                def forward(x):
                    y = relu(x) + mse(x, x) + gelu(x) + elu(x)
                    return swish(y) + _reduce(y)


                def head(x):
                    return ops.relu(x)
            """,
        },
    )
    assert graph["model.forward"] == {
        "ops.activations.relu",
        "ops.activations.elu",
        "ops.losses.mse",
        "ops.losses.gelu",
    }
    assert graph["model.head"] == {"ops.activations.relu"}


def test_an_item_of_a_container_of_functions_at_a_computed_key(tmp_path: Path) -> None:
    """``ACTIVATIONS[name](x)``: any of the items, as a loop over them would call; a literal key,
    only its item."""
    graph = _graph(
        tmp_path,
        {
            "layers.py": """
                def relu(x):
                    return x


                def tanh(x):
                    return x


                def warmup(step):
                    return step


                ACTIVATIONS = {"relu": relu, "tanh": tanh}
                SCHEDULES = [warmup]


                def activation(x, name):
                    return ACTIVATIONS[name](x)


                def output(x):
                    return ACTIVATIONS["tanh"](x)


                def learning_rate(step, phase):
                    return SCHEDULES[phase](step)
            """,
            "model.py": """
                import layers


                def forward(x, config):
                    return layers.output(layers.activation(x, config.act))
            """,
        },
    )
    assert graph["layers.activation"] == {"layers.relu", "layers.tanh"}
    assert graph["layers.output"] == {"layers.tanh"}
    assert graph["layers.learning_rate"] == {"layers.warmup"}


def test_iterating_an_object_passed_in_calls_its_iter_and_next(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {
            "data.py": """
                class Batches:
                    def __init__(self, n):
                        self.n = n
                        self.i = 0

                    def __iter__(self):
                        return self

                    def __next__(self):
                        if self.i == self.n:
                            raise StopIteration
                        self.i += 1
                        return self.i


                class Shards:
                    def __iter__(self):
                        yield 1
            """,
            "train.py": """
                from data import Batches, Shards


                def fit(batches):
                    return [batch for batch in batches]


                def shard_all(shards):
                    for shard in shards:
                        print(shard)


                fit(Batches(3))
                shard_all(Shards())
            """,
        },
    )
    assert graph["train.fit"] == {"data.Batches.__iter__", "data.Batches.__next__"}
    assert graph["train.shard_all"] == {"data.Shards.__iter__"}


def test_a_jitted_step_a_factory_made_and_stored_on_self_is_checked(tmp_path: Path) -> None:
    """The trainer keeps the jitted step its factory returns in ``self.train_step``; calling it
    with a static argument that changes every iteration re-traces, found where it is passed."""
    for name, text in {
        "steps.py": """
            from functools import partial

            import jax


            def make_train_step(scale):
                @partial(jax.jit, static_argnames="accumulate")
                def step(params, batch, accumulate):
                    return params - scale * batch.sum() / accumulate

                return step
        """,
        "trainer.py": """
            from steps import make_train_step


            class Trainer:
                def __init__(self, scale):
                    self.train_step = make_train_step(scale)

                def fit(self, params, batches):
                    for i, batch in enumerate(batches):
                        params = self.train_step(params, batch, accumulate=i + 1)
                    return params
        """,
    }.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    found = analyse([str(tmp_path)], Settings(cache=False)).findings
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in found] == [
        ("trainer.py", 11, "RTL201")
    ]
    assert "static argument i + 1 changes in the loop at line 10" in found[0].message


def test_an_instance_named_as_the_module_its_class_comes_from_is_linked(tmp_path: Path) -> None:
    # ``experiment`` is both the imported module and, once bound, the module-level instance; with a
    # second ``experiment`` module in the project, the class is known only through that name.
    experiment = """
        class DecayExperiment:
            def __init__(self, rate):
                self.rate = rate

            def predictions(self):
                return [self.rate]
    """
    graph = _graph(
        tmp_path,
        {
            "decay/experiment.py": experiment,
            "decay/main.py": """
                from experiment import DecayExperiment

                experiment = DecayExperiment(0.7)
                print(experiment.predictions())
            """,
            "growth/experiment.py": experiment,
        },
    )
    assert "decay.experiment.DecayExperiment.__init__" in graph["main"]
    assert not any(callee.startswith("growth.") for callee in graph["main"])


def test_modules_of_a_project_whose_top_folder_is_a_package(tmp_path: Path) -> None:
    """A repository with an ``__init__.py`` beside its ``pyproject.toml``: its modules import each
    other as ``lib.steps``, which Python finds from the top (where its scripts run); so does the
    linker (the module is keyed under the top folder's name, as a package chain would name it)."""
    root = tmp_path / "my-repo"
    graph = _graph(
        root,
        {
            "__init__.py": "",
            "pyproject.toml": "[project]\nname = 'my-repo'\n",
            "lib/__init__.py": "",
            "lib/steps.py": """
                def update(x):
                    return x + 1
            """,
            "lib/loop.py": """
                from lib.steps import update

                def train():
                    return update(1)
            """,
        },
    )
    assert graph["my_repo.lib.loop.train"] == {"my_repo.lib.steps.update"}
