"""Round 35's false findings and wrong severities (issue 36), each family both ways on small
multi-module projects:

- F3 (paths): a call whose arguments cannot bind to the project function or class it names (a
  required parameter left out, a keyword it does not take) raises TypeError, so nothing after it
  on its path runs; the same code with a call that binds (or passes ``**settings``) is reported;
- S1/S3 (severity): a build reached only at the iterations a fixed-size index set picks (``if epoch
  in video_epochs``, a ``linspace`` of ``num_videos``) and a static mode per item of a list filled
  once per tensor mode are bounded: warnings; an index set that grows with the run stays an error;
- F5 (types): a Python float times a value that is an int or a float is a float: no dtype flip;
  the int-or-float value passed on its own still flips;
- F6 (duplicate): a static count read off the same loop item as a slice that changes shape is
  told by the slice's finding; a static loop counter beside it stays its own finding."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding


def _findings(root: Path, files: dict[str, str]) -> list[Finding]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return analyse([str(root)], Settings(cache=False)).findings


def _told(findings: list[Finding]) -> dict[tuple[str, int, str], str]:
    return {(Path(f.location.path).name, f.location.line, f.code): f.severity for f in findings}


_TASK = """\
import jax
import jax.numpy as jnp


class Task:
    def __init__(self, agent, reward_probs, sequence, block_order):
        self.agent = agent
        self.reward_probs = jnp.asarray(reward_probs)
        self.sequence = sequence
        self.block_order = block_order

    def run(self, key):
        def one_trial(carry, trial):
            key, q = carry
            key, sub = jax.random.split(key)
            choice = jax.random.categorical(sub, self.agent["beta"] * q)
            reward = jax.random.bernoulli(sub, self.reward_probs[choice])
            q = q.at[choice].add(self.agent["lr"] * (reward - q[choice]))
            return (key, q), choice

        (_, q), choices = jax.lax.scan(one_trial, (key, jnp.zeros(4)), jnp.arange(480))
        return q, choices


def describe(agent):
    return f"lr={agent['lr']:.2f} beta={agent['beta']:.1f}"
"""

_PAIRS = """\
import jax

from sim.task import Task, describe

for pair in range(50):
    agent = {{"lr": 0.1 * (pair % 10), "beta": 3.0}}
    print(describe(agent{extra}))
    task = Task(agent, [0.8, 0.2, 0.2, 0.8], 1, 1)
    task.run(jax.random.PRNGKey(pair))
"""

_GROUP = """\
import jax
import numpy as np

from sim.task import Task

choices = []
for agent_no in range(100):
    lr, beta = np.random.uniform(0, 1, 2)
    task = Task({{"lr": lr, "beta": beta}}, {args})
    q, c = task.run(jax.random.PRNGKey(agent_no))
    choices.append(c)
"""

_MOMENTUM = """\
import functools

import jax
import jax.numpy as jnp


def sgd_init(params):
    return {"count": jnp.zeros((), jnp.int32)}


def momentum_init(params, base_init, reset_threshold=100.0):
    state = {"base": base_init(params), "m": jax.tree_util.tree_map(jnp.zeros_like, params)}
    return state, functools.partial(momentum_update, reset_threshold)


def momentum_update(reset_threshold, grads, state):
    m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + g, state["m"], grads)
    return m, {"base": state["base"], "m": m}
"""

_TRAINER = """\
import jax
import jax.numpy as jnp

from opt.momentum import momentum_init, momentum_update, sgd_init


class Trainer:
    def __init__(self, params, config):
        self.params = params
        if config["optimizer"] == "momentum":
            self.opt_state, self.update = momentum_init(params, base_init=sgd_init)
        if config["optimizer"] == "coin_betting":
            self.opt_state = momentum_init(params, base_init=sgd_init, {keywords})
            self.update = lambda grads, state: momentum_update(10.0, grads, state)
        self.step = jax.jit(self._step)

    def _step(self, params, opt_state, batch):
        grads = jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
        updates, opt_state = self.update(grads, opt_state)
        return params - 1e-2 * updates, opt_state

    def fit(self, batches):
        for batch in batches:
            self.params, self.opt_state = self.step(self.params, self.opt_state, batch)
        return self.params


if __name__ == "__main__":
    import sys

    trainer = Trainer(jnp.ones(8), {{"optimizer": sys.argv[1], "eps": 1e-8}})
    trainer.fit([jnp.ones((16, 8)) * i for i in range(100)])
"""


def _raising_paths(root: Path, task_args: str, keywords: str, extra: str) -> list[Finding]:
    return _findings(
        root,
        {
            "sim/__init__.py": "",
            "sim/task.py": _TASK,
            "simulate_group.py": _GROUP.format(args=task_args),
            "simulate_pairs.py": _PAIRS.format(extra=extra),
            "opt/__init__.py": "",
            "opt/momentum.py": _MOMENTUM,
            "trainer.py": _TRAINER.format(keywords=keywords),
        },
    )


def test_paths_through_calls_that_cannot_bind_are_not_reported(tmp_path: Path) -> None:
    # `Task(...)` without its required `sequence` and `block_order`; `describe` given two
    # arguments for its one; `momentum_init` given keywords it does not take: each raises
    # TypeError before the scan or the step it leads to.
    found = _raising_paths(
        tmp_path, "reward_probs=[0.8, 0.2, 0.2, 0.8]", 'eps=config["eps"], decay=0.99', ', "long"'
    )
    assert _told(found) == {}


def test_paths_through_calls_that_bind_are_reported(tmp_path: Path) -> None:
    # The same calls binding their arguments, one through `**settings` (it may pass anything).
    found = _raising_paths(
        tmp_path,
        '[0.8, 0.2, 0.2, 0.8], **{"sequence": 1, "block_order": 1}',
        'reset_threshold=config["eps"]',
        "",
    )
    assert _told(found) == {
        ("task.py", 21, "RTL301"): "error",
        ("trainer.py", 13, "RTL403"): "warning",
    }


_RENDER = """\
import jax
import jax.numpy as jnp


def make_policy(params):
    def policy(obs, key):
        return jnp.tanh(obs @ params["w"]) + 0.01 * jax.random.normal(key, (2,))

    return policy


def render_video(policy_factory, params, env_step, seed=0, rollout_len=100):
    policy = jax.jit(policy_factory(params))
    key = jax.random.PRNGKey(seed)
    obs = jnp.zeros(params["w"].shape[0])
    for _ in range(rollout_len):
        key, sub = jax.random.split(key)
        obs = env_step(obs, policy(obs, sub))
    return obs


def probe(policy_factory, params, obs):
    policy = jax.jit(policy_factory(params))
    return policy(obs, jax.random.PRNGKey(0))
"""

_RUN = """\
import argparse

import jax
import jax.numpy as jnp
import numpy as np

from agents.render import make_policy, probe, render_video


def env_step(obs, action):
    return obs + 0.1 * action.sum()


@jax.jit
def update(params, obs):
    grads = jax.grad(lambda p: jnp.sum(jnp.tanh(obs @ p["w"]) ** 2))(params)
    return jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, params, grads)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1000)
    parser.add_argument("--num-videos", type=int, default=30)
    args = parser.parse_args()
    params = {"w": jnp.ones((4, 2))}
    video_epochs = np.linspace(0, args.epochs - 1, args.num_videos).astype(int)
    probe_epochs = np.arange(0, args.epochs, 10)
    for epoch in range(args.epochs):
        if epoch in video_epochs and args.num_videos > 0:
            render_video(make_policy, params, env_step, seed=epoch)
        if epoch in probe_epochs:
            probe(make_policy, params, jnp.ones(4))
        params = update(params, jnp.ones(4) * epoch)


if __name__ == "__main__":
    main()
"""

_TENSORS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(2,))
def mode_dot(tensor, matrix, mode):
    res = jnp.tensordot(tensor, matrix, axes=(mode, 1))
    return jnp.moveaxis(res, -1, mode)


def hosvd(tensor):
    factors = []
    for m in range(tensor.ndim):
        unfolded = jnp.moveaxis(tensor, m, 0).reshape(tensor.shape[m], -1)
        u, _, _ = jnp.linalg.svd(unfolded, full_matrices=False)
        factors.append(u)
    core = tensor
    for i, factor in enumerate(factors):
        core = mode_dot(core, factor.T, i)
    return core, factors


def project_stream(core, stream):
    collected = []
    for matrix in stream:
        collected.append(matrix)
    for i, matrix in enumerate(collected):
        core = mode_dot(core, matrix, i)
    return core
"""

_COMPRESS = """\
import jax

from tens.ops import hosvd, project_stream


def matrices(n):
    key = jax.random.PRNGKey(n)
    while True:
        key, sub = jax.random.split(key)
        yield jax.random.normal(sub, (4, 4))


key = jax.random.PRNGKey(0)
for trial in range(20):
    key, sub = jax.random.split(key)
    data = jax.random.normal(sub, (8, 9, 10))
    core, factors = hosvd(data)
    print(trial, float(project_stream(core, matrices(trial)).sum()))
"""


_SNAPSHOTS = """\
import jax
import jax.numpy as jnp
import numpy as np


def train(epochs, num_videos, probe_every, marks):
    video_epochs = np.linspace(0, epochs - 1, num_videos).astype(int)
    probe_epochs = np.arange(0, epochs, probe_every)
    marked = []
    for mark in marks:
        marked.append(int(mark))
    params = jnp.ones(4)
    for epoch in range(epochs):
        if epoch in video_epochs:
            policy = jax.jit(lambda obs: jnp.tanh(obs * params))
            policy(jnp.ones(4))
        if epoch in probe_epochs:
            probe = jax.jit(lambda obs: obs @ params)
            probe(jnp.ones(4))
        if epoch in marked:
            saved = jax.jit(lambda obs: obs - params)
            saved(jnp.ones(4))
        params = params * 0.99


if __name__ == "__main__":
    import sys

    train(1000, 30, 10, sys.argv[1:])
"""


def test_re_traces_bounded_by_a_fixed_count_are_warnings(tmp_path: Path) -> None:
    found = _findings(
        tmp_path,
        {
            "agents/__init__.py": "",
            "agents/render.py": _RENDER,
            "run.py": _RUN,
            "tens/__init__.py": "",
            "tens/ops.py": _TENSORS,
            "compress.py": _COMPRESS,
            "snapshots.py": _SNAPSHOTS,
        },
    )
    assert _told(found) == {
        # the same two index sets, the jit rebuilt in the loop's own body
        ("snapshots.py", 15, "RTL301"): "warning",
        ("snapshots.py", 18, "RTL301"): "error",
        # a list the command line fills: as long as the run is told
        ("snapshots.py", 21, "RTL301"): "error",
        # at most `num_videos` renders, wherever the linspace puts them
        ("render.py", 13, "RTL301"): "warning",
        # every tenth epoch: grows with the run
        ("render.py", 23, "RTL301"): "error",
        # one per mode of a list filled once per axis of the tensor
        ("ops.py", 21, "RTL201"): "warning",
        # one per matrix a stream gives: as many as it yields
        ("ops.py", 30, "RTL201"): "error",
    }
    video = next(f for f in found if f.location.line == 13)
    assert video.message.endswith("(bounded: one per item of `video_epochs`)")


_LOOP = """\
import math

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch, lr):
    grads = jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    return params - lr * grads


@jax.jit
def scale(params, factor):
    return params * factor


class Trainer:
    def __init__(self, params, config):
        self.params = params
        self.config = config
        self.iterations = 0

    def run_epoch(self, batches):
        config = self.config
        for batch in batches:
            lr = config["lr"]
            if config["decay"] == "cosine":
                lr = lr * 0.5 * (1 + math.cos(math.pi * self.iterations / config["total_steps"]))
            lr = lr * min(1, float(self.iterations) / float(max(1, config["warmup_steps"])))
            cold = 0.001 * (1 if self.iterations < config["warmup_steps"] else 0.5)
            self.params = train_step(self.params, batch, jnp.array(lr * cold))
            warm = min(1, float(self.iterations) / float(config["warmup_steps"]))
            self.params = scale(self.params, jnp.array(warm))
            self.iterations += 1
"""

_MAIN = """\
import jax.numpy as jnp

from train.loop import Trainer

trainer = Trainer(
    jnp.ones(8), {"lr": 3e-4, "decay": "none", "total_steps": 1000, "warmup_steps": 100}
)
for epoch in range(5):
    trainer.run_epoch([jnp.ones((32, 8)) * i for i in range(200)])
"""


def test_a_float_times_an_int_or_a_float_keeps_one_dtype(tmp_path: Path) -> None:
    found = _findings(tmp_path, {"train/__init__.py": "", "train/loop.py": _LOOP, "main.py": _MAIN})
    # `lr * min(1, ...)` and `0.001 * (1 if ... else 0.5)` are floats whichever the pick; `warm`
    # itself is an int (0, 1) or a float: its array's dtype flips.
    assert _told(found) == {("loop.py", 33, "RTL402"): "warning"}


_BATCHED = """\
import jax
import jax.numpy as jnp
import numpy as np


def _panel_loglike(betas, X, panel_ids, num_panels):
    per_obs = jax.nn.log_sigmoid(X @ betas)
    return jax.ops.segment_sum(per_obs, panel_ids, num_segments=num_panels).sum()


loglike_and_grad = jax.jit(jax.value_and_grad(_panel_loglike), static_argnames=["num_panels"])


def panel_batches(panels, batch_size):
    starts = np.flatnonzero(np.r_[True, np.diff(panels) != 0])
    bounds = list(starts[::batch_size]) + [len(panels)]
    return [(s, e, len(np.unique(panels[s:e]))) for s, e in zip(bounds[:-1], bounds[1:])]


def neg_loglike_batched(betas, X, panels, batch_size):
    total, grad = 0.0, jnp.zeros_like(betas)
    for start, end, num_panels_this_batch in panel_batches(panels, batch_size):
        batch_panels = panels[start:end] - panels[start]
        value, g = loglike_and_grad(betas, X[start:end], batch_panels, num_panels_this_batch)
        total, grad = total + value, grad + g
    return -total, -grad


def neg_loglike_counted(betas, X, panels, batch_size):
    total = 0.0
    for number, (start, end, _) in enumerate(panel_batches(panels, batch_size)):
        batch_panels = panels[start:end] - panels[start]
        value, _ = loglike_and_grad(betas, X[start:end], batch_panels, number + 1)
        total = total + value
    return -total
"""

_ESTIMATE = """\
import numpy as np
import scipy.optimize

from logit.batched import neg_loglike_batched, neg_loglike_counted

rng = np.random.default_rng(0)
panels = np.sort(rng.integers(0, 300, size=5000))
X = rng.normal(size=(5000, 6))
result = scipy.optimize.minimize(
    neg_loglike_batched, np.zeros(6), args=(X, panels, 64), jac=True, method="L-BFGS-B"
)
print(result.x, neg_loglike_counted(result.x, X, panels, 64))
"""


def test_a_static_count_of_the_sliced_item_is_told_by_the_slice(tmp_path: Path) -> None:
    found = _findings(
        tmp_path,
        {"logit/__init__.py": "", "logit/batched.py": _BATCHED, "estimate.py": _ESTIMATE},
    )
    told = {(f.location.line, f.code) for f in found}
    assert told == {(23, "RTL101"), (32, "RTL101"), (33, "RTL201")}
    sliced = next(f for f in found if f.location.line == 23)
    assert [(r.location.line, r.code) for r in sliced.related if r.code == "RTL201"] == [
        (24, "RTL201")
    ]
    assert "(and static 'num_panels' of the same item)" in sliced.message
