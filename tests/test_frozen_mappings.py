"""A frozen mapping (a project's own class registered as a pytree, as Flax's FrozenDict is) against
the plain dict an ``unfreeze``-style copy makes (issue 39): a different pytree node, so a jitted
function handed one and then the other traces twice. Three shapes of it, on projects split over
modules: one body passes the frozen parameters a builder returns, then the dict a transfer method
makes of them (a comprehension in a helper of another module, keys unknown); a warm-up ``for`` loop
and a ``while`` loop after a graft that thaws the parameters carry one step's state; a ``while``
loop carries a NamedTuple whose frozen field the jitted update gives back as a dict comprehension. Each positive
re-traces under jax and is found where the plain dict is made; its twin, which freezes the dict
again, traces once and is clean."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _traced_as_expected, _write, needs_jax

# The frozen mapping both projects share, registered by a call rather than a decorator.
SEALED = '''\
"""An immutable mapping of parameters, registered as a pytree node of its own."""

from collections.abc import Mapping

import jax


class Sealed(Mapping):
    def __init__(self, items):
        self._items = {k: seal(v) for k, v in dict(items).items()}

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)


def seal(tree):
    return Sealed(tree) if isinstance(tree, Mapping) else tree


def thaw(tree):
    if isinstance(tree, Mapping):
        return {k: thaw(v) for k, v in tree.items()}
    return tree


def _children(sealed):
    keys = tuple(sorted(sealed._items))
    return tuple(sealed._items[k] for k in keys), keys


def _rebuilt(keys, children):
    return Sealed(dict(zip(keys, children)))


jax.tree_util.register_pytree_node(Sealed, _children, _rebuilt)
'''

# A classifier scored before and after its encoder is swapped for a pretrained one by a method.
TRANSFER = {
    "sealed.py": SEALED,
    "network.py": '''\
"""A two-layer classifier whose builder hands out sealed parameters."""

import jax
import jax.numpy as jnp

from sealed import seal


def build(key, n_in=6, n_hidden=8):
    k1, k2 = jax.random.split(key)
    return seal(
        {
            "encoder": {"w": 0.3 * jax.random.normal(k1, (n_in, n_hidden))},
            "head": {"w": 0.3 * jax.random.normal(k2, (n_hidden,))},
        }
    )


@jax.jit
def score(params, x):
    return jnp.mean(jnp.tanh(x @ params["encoder"]["w"]) @ params["head"]["w"])
''',
    "transfer.py": '''\
"""Put a pretrained encoder under a trained head."""

from sealed import seal, thaw


class Transfer:
    def __init__(self, encoder):
        self.encoder = encoder

    def swap_encoder(self, params):
        swapped = thaw(params)
        swapped["encoder"] = {"w": self.encoder}
        return @BACK@
''',
    "main.py": '''\
"""Score the fresh model, swap its encoder, score again."""

import jax
import jax.numpy as jnp

from network import build, score
from transfer import Transfer


def main():
    x = jnp.ones((4, 6))
    params = build(jax.random.PRNGKey(0))
    print(float(score(params, x)))
    params = Transfer(jnp.full((6, 8), 0.1, jnp.float32)).swap_encoder(params)
    print(float(score(params, x)))


if __name__ == "__main__":
    main()
''',
}

# A relaxation whose NamedTuple carry holds sealed weights; the jitted update shrinks them.
RELAX = {
    "sealed.py": SEALED,
    "relax.py": '''\
"""One relaxation step over sealed weights."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

from sealed import seal


class Carry(NamedTuple):
    weights: object
    step: jax.Array


@jax.jit
def update(carry):
    shrunk = @SHRUNK@
    return Carry(shrunk, carry.step + 1)


def start():
    return Carry(seal({"a": jnp.ones(3), "b": jnp.zeros(2)}), jnp.zeros((), jnp.int32))
''',
    "main.py": '''\
"""Relax the weights for a few steps."""

from relax import start, update


def main(steps=4):
    carry = start()
    i = 0
    while i < steps:
        carry = update(carry)
        i += 1
    print(int(carry.step))


if __name__ == "__main__":
    main()
''',
}

# Warm-up steps on sealed parameters, then a graft that hands back a plain copy, then more steps: the
# first step after the graft gets a dict where the loop before passed the sealed mapping.
TUNE = {
    "sealed.py": SEALED,
    "steps.py": '''\
"""A gradient step over whatever mapping of parameters it is given."""

import jax
import jax.numpy as jnp

from sealed import seal


def init(key):
    return seal({"w": jax.random.normal(key, (3,)), "b": jnp.zeros(())})


@jax.jit
def sgd_step(params, x):
    grads = jax.grad(lambda p: jnp.sum((x @ p["w"] + p["b"]) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads), x.sum()
''',
    "graft.py": '''\
"""Graft a bias learnt elsewhere onto trained parameters."""

from sealed import seal, thaw


def with_bias(params, bias):
    grafted = thaw(params)
    grafted["b"] = bias
    return @BACK@
''',
    "main.py": '''\
"""Warm up, graft, tune."""

import jax
import jax.numpy as jnp

from graft import with_bias
from steps import init, sgd_step


def main(steps=3):
    x = jnp.ones((4, 3))
    params = init(jax.random.PRNGKey(0))
    for _ in range(steps):
        params, loss = sgd_step(params, x)
    params = with_bias(params, jnp.zeros(()))
    k = 0
    while k < steps:
        params, loss = sgd_step(params, x)
        k += 1
    print(float(loss))


if __name__ == "__main__":
    main()
''',
}

_SHRINK = "{k: 0.9 * v for k, v in carry.weights.items()}"


def _projects(tmp_path: Path) -> dict[str, Path]:
    return {
        "transfer": _write(tmp_path / "transfer", TRANSFER, BACK="swapped"),
        "transfer_fixed": _write(tmp_path / "transfer_fixed", TRANSFER, BACK="seal(swapped)"),
        "tune": _write(tmp_path / "tune", TUNE, BACK="grafted"),
        "tune_fixed": _write(tmp_path / "tune_fixed", TUNE, BACK="seal(grafted)"),
        "relax": _write(tmp_path / "relax", RELAX, SHRUNK=_SHRINK),
        "relax_fixed": _write(tmp_path / "relax_fixed", RELAX, SHRUNK=f"seal({_SHRINK})"),
    }


# Where each positive is reported: the call that makes the plain dict; the step's return that packs it.
EXPECTED = {
    "transfer": [("transfer.py", 11, "RTL403")],
    "tune": [("graft.py", 7, "RTL403")],
    "relax": [("relax.py", 19, "RTL403")],
}


def test_a_frozen_mapping_against_a_plain_dict_is_found_where_the_dict_is_made(
    tmp_path: Path,
) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


# The script each project runs and the jitted function it calls again, as jax names it.
RUNS = {
    "transfer": ("main.py", "score"),
    "tune": ("main.py", "sgd_step"),
    "relax": ("main.py", "update"),
}


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    _traced_as_expected(_projects(tmp_path), EXPECTED, RUNS, tmp_path)


# Two models of two registered classes scored by one jitted function in one body, as a test that
# compares them does: two structures on purpose (each traced once per model), not a flip to fix.
COMPARE = {
    "models.py": '''\
"""Two models, each a pytree of its own class."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Linear:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def __call__(self, x):
        return x @ self.w


@jax.tree_util.register_pytree_node_class
class Tanh(Linear):
    def __call__(self, x):
        return jnp.tanh(x @ self.w)


@jax.jit
def score(model, x):
    return jnp.mean(model(x))
''',
    "main.py": '''\
"""Score both models on one batch."""

import jax.numpy as jnp

from models import Linear, Tanh, score


def main():
    x = jnp.ones((4, 3))
    print(float(score(Linear(jnp.ones((3, 2))), x)), float(score(Tanh(jnp.ones((3, 2))), x)))


if __name__ == "__main__":
    main()
''',
}


def test_two_classes_passed_by_one_body_are_two_on_purpose(tmp_path: Path) -> None:
    assert _found(_write(tmp_path, COMPARE)) == []
