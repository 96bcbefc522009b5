"""A jit rebuilt only for another value of what defines it, each value traced once, is no removable
re-trace (round 34's F2, issue 36 cause 2): a curriculum that rebuilds its steps only when the
horizon changes (``if t != new_t: t = new_t; ...``), a quadrature rule's jit per order read from a
data file, built by a maker whose closure the order sizes. Held back by default with the
``per-item`` assumption; the same shapes where the rebuild does not follow the value (a guard on
something the build does not read, a new rate that a jit built once would take as an argument, a
maker given data) stay errors. And a bound that is the run's own length (``range(args.n)``) is no
bound: a rebuild per generated circuit is an error, where one per listed gain stays a warning
(round 34's S1)."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse

PER_ITEM = "one trace per item, each item its own computation"

# A symplectic RNN fitted with a curriculum: the integration horizon grows every `warmup` steps,
# and the train and validation steps are built for the integrator of the horizon.
INTEGRATE = """\
import jax
import jax.numpy as jnp


def get_integrator(dt, num_steps):
    def integrate(q0, p0, params):
        def body(carry, _):
            q, p = carry
            p = p - dt * jnp.tanh(params["w"] * q)
            q = q + dt * p
            return (q, p), q

        _, qs = jax.lax.scan(body, (q0, p0), None, length=num_steps)
        return qs

    return integrate


def get_step_fns(integrator, lr):
    def loss(params, q0, p0, target):
        pred = integrator(q0, p0, params)
        return jnp.mean((pred - target[: pred.shape[0]]) ** 2)

    def train_step(params, q0, p0, target):
        grads = jax.grad(loss)(params, q0, p0, target)
        return jax.tree_util.tree_map(lambda w, g: w - lr * g, params, grads)

    def val_step(params, q0, p0, target):
        return loss(params, q0, p0, target)

    return jax.jit(train_step), jax.jit(val_step)
"""
FIT = """\
import jax.numpy as jnp
import numpy as np

from rnn.integrate import get_integrator, get_step_fns

T = 200


def horizon_at(step, warmup):
    return min(T, 10 + 10 * (step // warmup))


def fit(params, data, num_steps, warmup=500):
    integrate_t = None
    for step in range(num_steps):
        new_integrate_t = horizon_at(step, warmup)
        if integrate_t is None or integrate_t != new_integrate_t:
            print(f"switching to {new_integrate_t} steps")
            integrate_t = new_integrate_t
            integrator = get_integrator(0.01, integrate_t)
            train_step, val_step = get_step_fns(integrator, 1e-3)
        i = step % data.shape[0]
        params = train_step(params, data[i, 0], data[i, 1], data[i])
    return params


if __name__ == "__main__":
    data = jnp.asarray(np.random.randn(64, T))
    fit({"w": jnp.ones(())}, data, 20000)
"""
# The same trainer with a learning rate halved every 1000 steps: the steps are rebuilt whenever
# the rate changes, a float a jit built once would take as an argument.
DECAYED = """\
import jax.numpy as jnp
import numpy as np

from rnn.integrate import get_integrator, get_step_fns


def fit_decayed(params, data, num_steps):
    integrator = get_integrator(0.01, 50)
    lr = None
    for step in range(num_steps):
        new_lr = 1e-3 * 0.5 ** (step // 1000)
        if lr != new_lr:
            lr = new_lr
            train_step, val_step = get_step_fns(integrator, lr)
        params = train_step(params, data[0], data[1], data)
    return params


if __name__ == "__main__":
    fit_decayed({"w": jnp.ones(())}, jnp.asarray(np.random.randn(200)), 20000)
"""

# A rollout whose unroll length a stage sets, stored in a config dict before the jit is rebuilt;
# and a trainer that rebuilds the same rollout at every new epoch, which the build never reads.
ROLLOUT = """\
import jax


def rollout(x, config):
    def body(c, _):
        return c * config["decay"], c

    return jax.lax.scan(body, x, None, length=config["D"])[1]
"""
STAGES = """\
from functools import partial

import jax
import jax.numpy as jnp

from sims.rollout import rollout


def stage_of(step):
    return 4 + step // 1000


def train_staged(x, num_steps):
    config = {"decay": 0.9, "D": 4}
    d = None
    for step in range(num_steps):
        new_d = stage_of(step)
        if d != new_d:
            d = new_d
            config["D"] = d
            run = jax.jit(partial(rollout, config=config))
        x = x + 1e-3 * run(x).sum()
    return x


def train_epochs(x, num_steps, steps_per_epoch):
    config = {"decay": 0.9, "D": 4}
    last_epoch = None
    for step in range(num_steps):
        epoch = step // steps_per_epoch
        if epoch != last_epoch:
            last_epoch = epoch
            run = jax.jit(partial(rollout, config=config))
        x = x + 1e-3 * run(x).sum()
    return x


if __name__ == "__main__":
    train_staged(jnp.ones(3), 10000)
    train_epochs(jnp.ones(3), 10000, 100)
"""

# A precision study: a flux jit per quadrature order read from a data file (each order another
# number of Gauss-Legendre nodes), and a smoothed profile per width read from the same file (a
# float the closure only multiplies by).
SOLUTION = """\
import jax.numpy as jnp
import numpy as np


def solution_vector(order):
    nodes, weights = np.polynomial.legendre.leggauss(order)

    def impl(b, r):
        x = 0.5 * (nodes + 1.0)
        return jnp.sum(weights * jnp.sqrt(jnp.clip(1.0 - (b - r * x) ** 2, 0.0)))

    return impl


def smoothed(width):
    def impl(b, r):
        return jnp.exp(-((b - r) ** 2) / width)

    return impl
"""
PRECISION = """\
import jax
import numpy as np

from quad.solution import smoothed, solution_vector

data = np.load("inputs.npz")
bs = data["bs"]
results = {}
for order in data["orders"]:
    flux = jax.jit(jax.vmap(solution_vector(int(order)), in_axes=(0, None)))
    results[f"s_{order}"] = [flux(bs, r) for r in np.linspace(0.01, 0.5, 20)]
for width in data["widths"]:
    profile = jax.jit(jax.vmap(smoothed(float(width)), in_axes=(0, None)))
    results[f"p_{width}"] = [profile(bs, r) for r in np.linspace(0.01, 0.5, 20)]
np.savez("outputs.npz", **results)
"""
# A timing study that builds the flux jit per order again at every trial: the same programs each
# trial, which building once per order would not rebuild.
TIMING = """\
import sys
import time

import jax
import numpy as np

from quad.solution import solution_vector

data = np.load(sys.argv[1])
bs = data["bs"]
for trial in range(int(sys.argv[2])):
    for order in data["orders"]:
        flux = jax.jit(jax.vmap(solution_vector(int(order)), in_axes=(0, None)))
        start = time.perf_counter()
        flux(bs, 0.1).block_until_ready()
        print(trial, order, time.perf_counter() - start)
"""

# A circuit whose step jit is rebuilt by `set_control_policy`; a generator of `args.n` circuits,
# each with a random control gain, and a sweep over three listed gains.
CIRCUIT = """\
import jax
import jax.numpy as jnp


class Circuit:
    def __init__(self, dt):
        self.dt = dt
        self.control_policy = lambda state, t: jnp.zeros(2)
        self._define_step()

    def _define_step(self):
        def step(state, t):
            u = self.control_policy(state, t)
            return state + self.dt * (jnp.array([state[1], -state[0]]) + u)

        self.step = jax.jit(step)

    def set_control_policy(self, control_policy):
        self.control_policy = control_policy
        self._define_step()

    def gen_trajectory(self, state, num_steps):
        states = [state]
        for i in range(num_steps):
            state = self.step(state, i * self.dt)
            states.append(state)
        return jnp.stack(states)
"""
GENERATE = """\
from argparse import ArgumentParser
from functools import partial

import jax
import jax.numpy as jnp
from tqdm import tqdm

from sims.circuit import Circuit


def policy(state, t, gain):
    return gain * jnp.sin(t) * jnp.ones(2)


def generate_dataset(args):
    env = Circuit(0.01)
    key = jax.random.PRNGKey(0)
    dataset = []
    for i in tqdm(range(args.n)):
        key, subkey = jax.random.split(key)
        gain = jax.random.uniform(subkey)
        env.set_control_policy(partial(policy, gain=gain))
        dataset.append(env.gen_trajectory(jnp.ones(2), args.steps))
    return jnp.stack(dataset)


if __name__ == "__main__":
    parser = ArgumentParser()
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--steps", type=int, default=500)
    generate_dataset(parser.parse_args())
"""
SWEEP = """\
from functools import partial

import jax.numpy as jnp

from sims.circuit import Circuit


def policy(state, t, gain):
    return gain * jnp.sin(t) * jnp.ones(2)


if __name__ == "__main__":
    env = Circuit(0.01)
    for gain in (0.5, 1.0, 2.0):
        env.set_control_policy(partial(policy, gain=gain))
        print(gain, env.gen_trajectory(jnp.ones(2), 500)[-1])
"""

Found = dict[tuple[str, int], tuple[str, str, str]]


def _found(root: Path, files: dict[str, str], confidence: str) -> Found:
    """Each RTL301 by file and line: its severity, confidence and what it assumes or is bound by."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    run = analyse([str(root)], Settings(cache=False, confidence=confidence))
    return {
        (Path(f.location.path).relative_to(root).as_posix(), f.location.line): (
            f.severity,
            f.confidence,
            "; ".join(a.text for a in f.assumptions) or str(f.bound or ""),
        )
        for f in run.findings
        if f.code == "RTL301"
    }


def _trainer(*scripts: tuple[str, str]) -> dict[str, str]:
    return {"rnn/__init__.py": "", "rnn/integrate.py": INTEGRATE, **dict(scripts)}


def test_steps_rebuilt_only_when_the_curriculum_horizon_changes_are_held_back(
    tmp_path: Path,
) -> None:
    """The steps are rebuilt for each new horizon, from the integrator made for it: one program
    per horizon, traced once each, as a jit built once would trace."""
    files = _trainer(("fit.py", FIT))
    assert _found(tmp_path, files, "high") == {}
    held = (
        "warning",
        "low",
        f"built again only when `integrate_t` changes: {PER_ITEM}",
    )
    assert _found(tmp_path, files, "all") == {
        ("rnn/integrate.py", 31): held,
    }


def test_steps_rebuilt_whenever_a_decayed_rate_changes_are_an_error(tmp_path: Path) -> None:
    """A trainer that rebuilds the same steps for each new learning rate, a float a jit built
    once would take as an argument: a removable re-trace at every change."""
    files = _trainer(("fit_decayed.py", DECAYED))
    assert _found(tmp_path, files, "high") == {("rnn/integrate.py", 31): ("error", "high", "")}


def test_a_rollout_rebuilt_per_stage_length_is_held_back_and_per_epoch_an_error(
    tmp_path: Path,
) -> None:
    """The stage's unroll length goes into the config dict the rollout is built from; the epoch
    counter guards a rebuild that never reads it: the same rollout built again every epoch."""
    files = {"sims/__init__.py": "", "sims/rollout.py": ROLLOUT, "train.py": STAGES}
    assert _found(tmp_path, files, "high") == {("train.py", 33): ("error", "high", "")}
    assert _found(tmp_path, files, "all")[("train.py", 21)] == (
        "warning",
        "low",
        f"built again only when `d` changes: {PER_ITEM}",
    )


def test_a_flux_jit_per_quadrature_order_of_a_data_file_is_held_back(tmp_path: Path) -> None:
    """Each order sizes the nodes and weights the maker's closure reads: another program per
    order. A width is a float the closure multiplies by: a jit built once taking it would trace
    once, so the profile rebuilt per width is an error."""
    files = {
        "quad/__init__.py": "",
        "quad/solution.py": SOLUTION,
        "scripts/precision.py": PRECISION,
    }
    assert _found(tmp_path, files, "high") == {
        ("scripts/precision.py", 13): ("error", "high", ""),
    }
    assert _found(tmp_path, files, "all")[("scripts/precision.py", 10)] == (
        "warning",
        "low",
        f"`order` makes another computation: {PER_ITEM}",
    )


def test_a_flux_jit_per_order_rebuilt_at_every_trial_is_an_error(tmp_path: Path) -> None:
    """Around the orders, a loop of trials whose item defines nothing built: every order's
    program is built and traced again at each trial."""
    files = {"quad/__init__.py": "", "quad/solution.py": SOLUTION, "scripts/timing.py": TIMING}
    assert _found(tmp_path, files, "all") == {("scripts/timing.py", 13): ("error", "high", "")}


def test_a_rebuild_per_generated_circuit_is_an_error(tmp_path: Path) -> None:
    """`args.n` is how many circuits the run generates: the step jit rebuilt and traced for each
    is no bounded cost but the run's own length."""
    files = {"sims/__init__.py": "", "sims/circuit.py": CIRCUIT, "generate.py": GENERATE}
    assert _found(tmp_path, files, "high") == {("sims/circuit.py", 16): ("error", "high", "")}


def test_a_rebuild_per_listed_gain_stays_a_bounded_warning(tmp_path: Path) -> None:
    """Three gains written out: at most three traces, however long the run."""
    files = {"sims/__init__.py": "", "sims/circuit.py": CIRCUIT, "sweep.py": SWEEP}
    assert _found(tmp_path, files, "high") == {
        ("sims/circuit.py", 16): ("warning", "high", "at most 3 traces: one per listed item"),
    }
