"""Paths and types that cannot meet in one run (issue 36 cause 1): a chain is a finding only when one
process can run every call of it with the values and objects it names."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from retracelint.cli import main

# A lattice-Boltzmann package: a base whose run() calls self.initialize_populations(), and flows
# that override it; one builds a helper simulation (a static ``self`` made anew per call).
BASE = """
    from functools import partial

    import jax
    import jax.numpy as jnp


    class LBMBase:
        def __init__(self, nx):
            self.nx = nx
            self.f = self.initialize_populations()

        @partial(jax.jit, static_argnums=(0,))
        def update(self, f):
            return f * 0.9

        def initialize_populations(self):
            return jnp.ones(self.nx)

        def run(self, steps):
            f = self.initialize_populations()
            for _ in range(steps):
                f = self.update(f)
            return f
"""
FLOWS = """
    from lbm.base import LBMBase


    class Vortex(LBMBase):
        pass


    class Diffusion(LBMBase):
        pass


    class Channel(LBMBase):
        def initialize_populations(self):
            helper = Diffusion(self.nx)
            return helper.run(50)
"""
# Each script drives one kind of flow: what one script's loop repeats is its own flow's methods.
VORTEX = """
    import sys

    from lbm.flows import Vortex


    def drive(sim, steps):
        return sim.run(steps)


    def main(steps):
        for nx in [16, 32, 64]:
            {drive}


    if __name__ == "__main__":
        main(int(sys.argv[1]))
"""
CHANNEL = """
    from lbm.flows import Channel

    if __name__ == "__main__":
        Channel(16).run(100)
"""
CHANNEL_SWEEP = """
    import sys

    from lbm.flows import Channel


    def drive(sim, steps):
        return sim.run(steps)


    if __name__ == "__main__":
        for nx in [16, 32, 64]:
            drive(Channel(nx), int(sys.argv[1]))
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'sim'\n", encoding="utf-8")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def _findings(root: Path) -> list[dict]:
    args = ["check", str(root), "--no-cache", "--isolated", "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _relative(path: str, root: Path) -> str:
    return Path(path).relative_to(root).as_posix()


def _where(found: list[dict], root: Path) -> list[tuple[str, int, str]]:
    """Each finding's file (under ``root``), line and rule."""
    return [(_relative(f["path"], root), f["line"], f["code"]) for f in found]


def _lbm(root: Path, drive: str, sweep: bool) -> Path:
    files = {
        "lbm/__init__.py": "",
        "lbm/base.py": BASE,
        "lbm/flows.py": FLOWS,
        "vortex.py": VORTEX.format(drive=drive),
        "channel.py": CHANNEL,
    }
    return _write(root, {**files, **({"channel_sweep.py": CHANNEL_SWEEP} if sweep else {})})


# The loop makes Vortex objects: by its constructor (whose __init__ calls self.initialize_populations),
# as a local whose method it calls, and as an object a helper's parameter receives.
DRIVES = ("Vortex(nx)", "sim = Vortex(nx); sim.run(steps)", "drive(Vortex(nx), steps)")


def test_a_self_call_runs_no_override_of_another_scripts_flow(tmp_path: Path) -> None:
    """vortex.py repeats Vortex's run(); Channel's initialize_populations, which builds a Diffusion
    helper per call, runs once in channel.py: no chain joins that loop with Channel's override."""
    for n, drive in enumerate(DRIVES):
        root = _lbm(tmp_path / str(n), drive, sweep=False)
        assert _findings(root) == [], drive


def test_a_loop_over_the_overriding_flow_keeps_its_finding(tmp_path: Path) -> None:
    found = _findings(_lbm(tmp_path, DRIVES[1], sweep=True))
    assert _where(found, tmp_path) == [("lbm/flows.py", 16, "RTL204")]
    assert found[0]["message"].startswith(
        "static argument helper is a Diffusion instance made anew"
    )
    assert _relative(found[0]["call_path"][0]["path"], tmp_path) == "channel_sweep.py"


# A detector simulation with two modes, one weakly typed hit probability and one strongly typed:
# each run picks one mode from its command line, read once, outside the loop over batches.
SIMULATION = """
    import jax
    import jax.numpy as jnp


    @jax.jit
    def parse_output(adcs, hit_prob):
        return adcs * (hit_prob > 0.5)


    @jax.jit
    def parametrized(tracks):
        return tracks * 2.0, jnp.ones_like(tracks)


    def simulate_lut(tracks):
        hit_prob = jnp.where(tracks > 0, 1.0, 0.0)
        return parse_output(tracks, hit_prob)


    def simulate_parametrized(tracks):
        adcs, hit_prob = parametrized(tracks)
        return parse_output(adcs, hit_prob)
"""
# ``{loop}`` runs the batches of one mode, or (a comparison) of both.
BY_MODE = """
    if mode == "lut":
        simulate_lut(tracks)
    else:
        simulate_parametrized(tracks)
"""
BOTH = """
    simulate_lut(tracks)
    simulate_parametrized(tracks)
"""
MAIN = """
    import sys

    import jax.numpy as jnp

    from detector.sim import simulate_lut, simulate_parametrized


    def main(mode, batches):
        for batch in range(batches):
            tracks = jnp.arange(8.0) + batch
    {loop}

    if __name__ == "__main__":
    {runs}
"""
# The same choice at a script's top level, from an option of the command line.
TOP_LEVEL = """
    import argparse

    import jax.numpy as jnp

    from detector.sim import simulate_lut, simulate_parametrized

    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="lut")
    parser.add_argument("--batches", type=int, default=5)
    config = parser.parse_args()
    for batch in range(config.batches):
        tracks = jnp.arange(8.0) + batch
        if config.mode == "lut":
            simulate_lut(tracks)
        else:
            simulate_parametrized(tracks)
"""
ONE_RUN = "    main(sys.argv[1], int(sys.argv[2]))"
TWO_RUNS = '    main("lut", 5)\n    main("parametrized", 5)'


# Another program of the project (a fit of the parametrized mode alone): its calls run in its own
# process, and guard nothing of run.py's.
FIT = """
    import jax.numpy as jnp

    from detector.sim import simulate_parametrized

    if __name__ == "__main__":
        for step in range(100):
            simulate_parametrized(jnp.arange(8.0) * step)
"""


def _detector(root: Path, script: str) -> Path:
    files = {"detector/__init__.py": "", "detector/sim.py": SIMULATION, "fit.py": FIT}
    return _write(root, {**files, "run.py": script})


def _main(loop: str, runs: str) -> str:
    indented = textwrap.indent(textwrap.dedent(loop).strip("\n"), " " * 8)
    return textwrap.dedent(MAIN).format(loop=indented, runs=runs)


def test_two_modes_a_run_picks_once_never_meet_at_one_jit(tmp_path: Path) -> None:
    for n, script in enumerate((_main(BY_MODE, ONE_RUN), TOP_LEVEL)):
        assert _findings(_detector(tmp_path / str(n), script)) == [], script


def test_both_modes_in_one_run_keep_the_weak_type_flip(tmp_path: Path) -> None:
    """A comparison of the two modes in one loop, or a main run once per mode in one process,
    passes both kinds of hit_prob to one jit: two traces."""
    for n, script in enumerate((_main(BOTH, ONE_RUN), _main(BY_MODE, TWO_RUNS))):
        found = _findings(_detector(tmp_path / str(n), script))
        assert _where(found, tmp_path / str(n)) == [("detector/sim.py", 23, "RTL401")], script
        assert "jitted 'parse_output' traces twice" in found[0]["message"]


# A solver base class whose jitted initialiser takes the shape as a static argument; a flow fills a
# density field with a Python float and a velocity field with an array.
FIELDS = """
    from functools import partial

    import jax
    import jax.numpy as jnp
    import numpy as np


    def initial_fields(n):
        ux = np.ones((n, n), np.float32)
        uy = np.zeros((n, n), np.float32)
        return ux, uy, np.ones((n, n), np.float32)


    class Base:
        def __init__(self, n):
            self.n = n

        @partial(jax.jit, static_argnums=(0, 1, 2))
        def array_init(self, shape, dtype, init_val=0):
            return jnp.broadcast_to(jnp.asarray(init_val, dtype), shape)
"""
VORTEX_FIELDS = """
    import jax.numpy as jnp
    import numpy as np

    from solver.base import Base, initial_fields


    class Vortex(Base):
        def fields(self):
            ux, uy, rho = initial_fields(self.n)
            rho = self.array_init({first}, jnp.float32, init_val=1.0)
            u = np.stack([ux, uy], axis=-1)
            u = self.array_init({second}, jnp.float32, init_val={value})
            return rho, u


    if __name__ == "__main__":
        sim = Vortex(8)
        for _ in range(3):
            sim.fields()
"""


def _fields(root: Path, first: str, second: str, value: str) -> list[dict]:
    script = VORTEX_FIELDS.format(first=first, second=second, value=value)
    files = {"solver/__init__.py": "", "solver/base.py": FIELDS, "flows.py": script}
    return _findings(_write(root, files))


def test_a_weak_type_flip_between_calls_of_two_arrays_shapes_is_held_back(tmp_path: Path) -> None:
    """rho.shape and u.shape are two static shapes (2 and 3 axes): two computations whatever
    init_val is; nothing says they are one, so the flip rests on it and is not shown by default."""
    for n, (first, second) in enumerate((("rho.shape", "u.shape"), ("rho.shape", "ux.shape"))):
        assert _fields(tmp_path / str(n), first, second, "u") == []
    args = ["check", str(tmp_path / "0"), "--no-cache", "--isolated", "--confidence", "all"]
    shown = CliRunner().invoke(main, [*args, "--format", "json"])
    (held,) = json.loads(shown.stdout)
    assert held["code"] == "RTL401" and held["confidence"] == "medium"
    assert held["assumptions"][0]["text"] == "`u.shape` taken for `rho.shape`"


def test_a_weak_type_flip_between_calls_of_one_shape_is_shown(tmp_path: Path) -> None:
    found = _fields(tmp_path, "rho.shape", "rho.shape", "jnp.ones(rho.shape)")
    assert [(f["line"], f["code"], f["confidence"]) for f in found] == [(13, "RTL401", "high")]
    assert (
        "'init_val' gets a strongly typed array here but a weakly typed scalar"
        in (found[0]["message"])
    )


# A codec whose jitted encoder hands back (codes, scale); this model never rescales (round 28 F4).
# The test jits the model's encoder and decoder itself, as an equivalence test does.
CODEC_MODEL = """
    import jax.numpy as jnp


    class Codec:
        def encode(self, x):
            return jnp.round(x * 4), {scale}
"""
CODEC_TEST = """
    from functools import partial

    import jax
    import jax.numpy as jnp

    from codec.model import Codec

    MODEL = Codec()


    @jax.jit
    def encode_to_codes(x):
        return MODEL.encode(x)


    @partial(jax.jit, static_argnums=(1, 2))
    def decode_from_codes(codes, scale, length):
        out = codes / 4
        return out if scale is None else out * scale


    def test_roundtrip():
        for _ in range(3):
            x = jnp.ones(16)
            codes, scale = encode_to_codes(x)
            decode_from_codes(codes, scale, x.shape[-1])
"""


def _package(root: Path, package: str, modules: dict[str, str], scripts: dict[str, str]) -> Path:
    """A project of one package (``modules`` by name) and the scripts or tests that use it."""
    inside = {f"{package}/{name}.py": text for name, text in {"__init__": "", **modules}.items()}
    return _write(root, {**inside, **scripts})


def _codec(root: Path, scale: str) -> list[dict]:
    model = CODEC_MODEL.format(scale=scale)
    tests = {"tests/test_roundtrip.py": CODEC_TEST}
    return _findings(_package(root, "codec", {"model": model}, tests))


def test_a_none_a_jitted_function_hands_back_is_a_hashable_static(tmp_path: Path) -> None:
    assert _codec(tmp_path, "None") == []


def test_an_array_a_jitted_function_hands_back_is_no_static(tmp_path: Path) -> None:
    found = _codec(tmp_path, "jnp.ones(2)")
    assert _where(found, tmp_path) == [("tests/test_roundtrip.py", 27, "RTL203")]
    assert found[0]["message"].startswith("static argument scale is what a jitted function returns")


# A stepped-pressure solver: the flux through each volume, the first one's poloidal part a Python
# zero (round 29 F5, beltrami_jax spectre_solve.py:207).
FLUX = """
    import jax.numpy as jnp


    def flux_vector(toroidal, poloidal, index):
        if index == 0:
            dpflux = 0.0
        else:
            dpflux = poloidal[index] - poloidal[index - 1]
        return {made}
"""
SOLVE = """
    from functools import partial

    import jax
    import jax.numpy as jnp
    import numpy as np

    from spectre.flux import flux_vector


    @partial(jax.jit, static_argnames=("vacuum",))
    def solve_volume(matrix, flux, *, vacuum):
        return jnp.linalg.solve(matrix, flux * jnp.ones(2)) * (0.0 if vacuum else 1.0)


    def solve_all(n_volumes):
        tor = np.linspace(0.1, 1.0, n_volumes)
        pol = np.linspace(0.0, 0.5, n_volumes)
        for lvol in range(n_volumes):
            solve_volume(jnp.eye(2), flux_vector(tor, pol, lvol), vacuum=False)


    if __name__ == "__main__":
        solve_all(4)
"""


def _spectre(root: Path, made: str) -> list[dict]:
    flux = FLUX.format(made=made)
    return _findings(_package(root, "spectre", {"flux": flux}, {"solve.py": SOLVE}))


def test_a_weak_scalar_packed_into_an_array_of_a_given_dtype_is_no_flip(tmp_path: Path) -> None:
    for n, made in enumerate(
        (
            "jnp.asarray([toroidal[index], dpflux], dtype=jnp.float32)",
            "jnp.array([toroidal[index], dpflux], jnp.float32)",
            "jnp.asarray(dpflux, dtype=jnp.float32)",
        )
    ):
        assert _spectre(tmp_path / str(n), made) == [], made


def test_a_weak_scalar_an_array_keeps_weak_is_a_flip(tmp_path: Path) -> None:
    found = _spectre(tmp_path, "jnp.asarray(dpflux)")
    assert _where(found, tmp_path) == [("spectre/flux.py", 7, "RTL401")]
    assert found[0]["message"].startswith("dpflux is a weakly typed scalar in one branch")


# A Fourier backend chosen by an environment variable (round 29 F2, NEO_JAX fourier.py:228): the
# streamed backend runs an eager fori_loop over a body it defines per call.
HARMONICS = """
    import os

    import jax
    import jax.numpy as jnp


    def harmonics_streamed(theta, modes):
        def body(k, acc):
            return acc + jnp.cos(modes[k] * theta)

        return jax.lax.fori_loop(0, modes.shape[0], body, jnp.zeros_like(theta))


    def harmonics_vectorized(theta, modes):
        return jnp.sum(jnp.cos(modes[:, None] * theta[None, :]), axis=0)


    def harmonics(theta, modes):
        mode = os.getenv("FLUX_MODE", "{default}")
        if {test} == "streamed":
            return harmonics_streamed(theta, modes)
        return harmonics_vectorized(theta, modes)
"""
SURFACES = """
    import jax.numpy as jnp

    from flux.harmonics import harmonics


    def scan_surfaces(n_surfaces):
        theta = jnp.linspace(0.0, 6.28, 64)
        modes = jnp.arange(1.0, 9.0)
        return [harmonics(theta * (s + 1), modes) for s in range(n_surfaces)]


    if __name__ == "__main__":
        scan_surfaces(100)
"""
# A probe every ``probe_interval`` steps, 0 (the default no configuration changes) turning it off.
TRAIN_CONFIG = """
    from dataclasses import dataclass


    @dataclass
    class TrainConfig:
        steps: int = 20
        probe_interval: int = 0  # 0 = disabled
"""
PROBED_TRAINING = """
    from functools import partial

    import jax
    import jax.numpy as jnp

    from trainer.config import TrainConfig


    class Prober:
        def __init__(self, scale):
            self.scale = scale

        @partial(jax.jit, static_argnums=(0,))
        def probe(self, params):
            return jnp.sum(params) * self.scale


    def train(config):
        params = jnp.ones(4)
        for step in range(1, config.steps + 1):
            params = params * 0.99
            if config.probe_interval > 0 and step % config.probe_interval == 0:
                print(float(Prober(2.0).probe(params)))
        return params


    if __name__ == "__main__":
        train({config})
"""


def _proven(root: Path) -> list[tuple[str, int, str]]:
    return _where(_findings(root), root)


def test_branches_environment_and_count_defaults_switch_off_are_held_back(
    tmp_path: Path,
) -> None:
    harmonics = {"flux/__init__.py": "", "surfaces.py": SURFACES}
    vectorized = HARMONICS.replace("{default}", "vectorized")
    direct = vectorized.replace("{test}", 'os.getenv("FLUX_MODE", "vectorized")')
    env = _write(tmp_path / "env", {**harmonics, "flux/harmonics.py": direct})
    local = vectorized.replace("{test}", "mode")
    read_once = _write(tmp_path / "local", {**harmonics, "flux/harmonics.py": local})
    trainer = {"trainer/__init__.py": "", "trainer/config.py": TRAIN_CONFIG}
    probe = PROBED_TRAINING.format(config="TrainConfig()")
    count = _write(tmp_path / "count", {**trainer, "train.py": probe})
    # The interval read once into a local, as a training loop does.
    local_count = probe.replace(
        "        for step in", "        interval = config.probe_interval\n        for step in"
    ).replace(
        "if config.probe_interval > 0 and step % config.probe_interval",
        "if interval > 0 and step % interval",
    )
    counted = _write(tmp_path / "local_count", {**trainer, "train.py": local_count})
    for root in (env, read_once, count, counted):
        assert _findings(root) == []
    args = ["check", str(env), "--no-cache", "--isolated", "--confidence", "all"]
    (held,) = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)
    assert (
        held["assumptions"][0]["text"]
        == "`FLUX_MODE` is 'vectorized' unless set in the environment"
    )


def test_branches_the_defaults_or_the_project_switch_on_stay_proven(tmp_path: Path) -> None:
    harmonics = {"flux/__init__.py": "", "surfaces.py": SURFACES}
    streamed = HARMONICS.replace("{default}", "streamed").replace("{test}", "mode")
    by_default = _write(tmp_path / "default", {**harmonics, "flux/harmonics.py": streamed})
    setter = "import os\n\nos.environ['FLUX_MODE'] = 'streamed'\n"
    vectorized = HARMONICS.replace("{default}", "vectorized").replace("{test}", "mode")
    files = {**harmonics, "flux/harmonics.py": vectorized, "flux/streamed.py": setter}
    set_by_project = _write(tmp_path / "set", files)
    for root in (by_default, set_by_project):
        assert _proven(root) == [("flux/harmonics.py", 12, "RTL301")]
    trainer = {"trainer/__init__.py": "", "trainer/config.py": TRAIN_CONFIG}
    probe = PROBED_TRAINING.format(config="TrainConfig(probe_interval=5)")
    count = _write(tmp_path / "count", {**trainer, "train.py": probe})
    assert _proven(count) == [("train.py", 24, "RTL204")]


# A PSRO league whose population grows by one policy per iteration (round 29 F1,
# spatial-competition-jax psro.py:240): the payoff table plays the policies pairwise.
PAYOFF = """
    import jax
    import jax.numpy as jnp


    @jax.jit
    def play_match(params_a, params_b, keys):
        return jnp.mean(params_a["w"] * keys) - jnp.mean(params_b["w"] * keys)


    class PayoffTable:
        def __init__(self, keys):
            self.keys = keys

        def update(self, population):
            n = len(population)
            return [[float(play_match({a}, {b}, self.keys)) for j in range(n)] for i in range(n)]
"""
LEAGUE = """
    import jax.numpy as jnp

    from psro.payoff import PayoffTable, play_match


    class League:
        def __init__(self):
            self.population = [{{"w": jnp.ones(8)}}]
            self.table = PayoffTable(jnp.arange(8.0))

        def run(self, iterations):
            for it in range(iterations):
                self.table.update(self.population)
                play_match({newest}, self.population[0], jnp.ones(8))
                self.population.append({{"w": jnp.ones(8) * (it + 2)}})


    if __name__ == "__main__":
        League().run(100)
"""


def _league(root: Path, a: str, b: str, newest: str) -> list[tuple[str, int, str]]:
    modules = {"payoff": PAYOFF.format(a=a, b=b), "league": LEAGUE.format(newest=newest)}
    return _proven(_package(root, "psro", modules, {}))


def test_items_of_a_growing_population_are_no_growing_list(tmp_path: Path) -> None:
    assert _league(tmp_path, "population[i]", "population[j]", "self.population[-1]") == []


def test_the_growing_population_itself_reaches_the_jit(tmp_path: Path) -> None:
    found = _league(tmp_path / "list", "population", "population[j]", "self.population[-1]")
    assert found == [("psro/league.py", 16, "RTL102")]
    found = _league(tmp_path / "attr", "population[i]", "population[j]", "self.population")
    assert found == [("psro/league.py", 16, "RTL102")]


# Shapes described by dicts whose keys depend on the kind of shape (round 29 F4, magpylib_jax
# functional.py:678): the volume kernel gets arrays gathered from them.
SHAPES = """
    def describe(shape):
        data = {"kind": shape["kind"], "size": shape["size"]}
        if shape["kind"] == 2:
            data["vertices"] = shape["vertices"]
        return data
"""
VOLUMES = """
    import jax
    import jax.numpy as jnp

    from geometry.shapes import describe


    @jax.jit
    def total_volume(arrays):
        return jnp.sum(jnp.asarray([a["size"] * a["kind"] for a in arrays]))


    def gather(shapes):
        described = [describe(s) for s in shapes]
        return [{{
            "kind": jnp.asarray([d["kind"] for d in described], jnp.float32),
            "size": jnp.asarray([d["size"] for d in described], jnp.float32),
        }}]


    def report(scenes):
        for shapes in scenes:
            print(float(total_volume({passed})))


    box = {{"kind": 1, "size": 2.0}}
    tet = {{"kind": 2, "size": 1.0, "vertices": [[0, 0, 0]] * 4}}
    report([[box, box], [tet, box], [box, tet]])
"""


def _volumes(root: Path, passed: str) -> list[tuple[str, int, str]]:
    script = {"volumes.py": VOLUMES.format(passed=passed)}
    return _proven(_package(root, "geometry", {"shapes": SHAPES}, script))


def test_arrays_gathered_from_dicts_of_several_keys_keep_one_structure(tmp_path: Path) -> None:
    assert _volumes(tmp_path, "gather(shapes)") == []


def test_the_dicts_themselves_passed_change_the_structure(tmp_path: Path) -> None:
    found = _volumes(tmp_path, "[describe(s) for s in shapes]")
    assert sorted(set(found)) == [("geometry/shapes.py", 5, "RTL403"), ("volumes.py", 28, "RTL403")]


# The equivalence test's own jitted closures around a flax model's methods (DAC-JAX's shape): what
# ``apply`` returns is not known, so the scale may be the None the model's encoder returns.
APPLIED = """
    from functools import partial

    import jax
    import jax.numpy as jnp

    from codec.model import Codec


    def test_padding(model, variables):
        @jax.jit
        def encode_to_codes(x):
            codes, scale = model.apply(variables, x, method="encode")
            return codes, {scale}

        @partial(jax.jit, static_argnums=(1, 2))
        def decode_from_codes(codes, scale, length):
            return model.apply(variables, codes, scale, length, method="decode")

        x = jnp.ones(16)
        codes, scale = encode_to_codes(x)
        return decode_from_codes(codes, scale, x.shape[-1])
"""


def test_an_item_a_jitted_closure_returns_as_it_got_it_is_held_back(tmp_path: Path) -> None:
    files = {
        "codec/__init__.py": "",
        "codec/model.py": CODEC_MODEL.format(scale="None"),
        "tests/test_padding.py": APPLIED.format(scale="scale"),
    }
    root = _write(tmp_path / "unknown", files)
    assert _findings(root) == []
    args = ["check", str(root), "--no-cache", "--isolated", "--confidence", "all"]
    (held,) = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)
    assert (held["code"], held["confidence"]) == ("RTL203", "medium")
    known = _write(
        tmp_path / "array", {**files, "tests/test_padding.py": APPLIED.format(scale="jnp.ones(2)")}
    )
    assert _proven(known) == [("tests/test_padding.py", 22, "RTL203")]
