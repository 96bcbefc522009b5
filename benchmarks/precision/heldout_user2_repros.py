"""Miniature re-trace counts behind the sample-2 verdicts (HELDOUT_USER2.md). CPU is enough.

Each block copies the shape of one pattern from the sample (names follow the source) and counts how
often the jitted/pmapped body is traced. flax is not a dependency here, so R2 uses a stand-in
TrainState whose apply_fn is static aux data, as flax's pytree_node=False field is.
Run: python benchmarks/precision/heldout_user2_repros.py
"""

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class TrainState:  # stand-in for flax TrainState: apply_fn is static (aux data), params a leaf
    apply_fn: object
    params: object

    def tree_flatten(self):
        return (self.params,), self.apply_fn

    @classmethod
    def tree_unflatten(cls, aux, ch):
        return cls(aux, ch[0])

    def apply_gradients(self, grads):
        return TrainState(
            self.apply_fn, jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, self.params, grads)
        )


class M:
    def apply(self, variables, x):
        return x @ variables["params"]["w"]


out = {}
# R1 DDPM: pmap static_broadcasted_argnums=(4,) with t_index = loop counter
n = [0]


def _sample_fn(key, params, x, t, t_index):
    n[0] += 1
    return x * 0.5 if t_index == 0 else x + 1.0


pp = jax.pmap(_sample_fn, axis_name="batch", static_broadcasted_argnums=(4,))
x = jnp.ones((1, 2))
key = jnp.zeros((1, 2), jnp.uint32)
for i in reversed(range(6)):
    x = pp(key, jnp.ones((1,)), x, jnp.full((1, 2), i, jnp.int32), i)
out["R1 ddpm static t_index, 6 steps"] = n[0]
# R2 flax ppo: static apply_fn taken from a TrainState carried through a jitted train_step
m = M()
params = {"w": jnp.ones((4, 3))}
state = TrainState(apply_fn=m.apply, params=params)
c = [0]


@functools.partial(jax.jit, static_argnums=0)
def policy_action(apply_fn, params, s):
    c[0] += 1
    return apply_fn({"params": params}, s)


@jax.jit
def train_step(state):
    g = jax.grad(lambda p: state.apply_fn({"params": p}, jnp.ones((2, 4))).sum())(state.params)
    return state.apply_gradients(grads=g)


for _ in range(5):
    policy_action(state.apply_fn, state.params, np.ones((2, 4), np.float32))
    state = train_step(state)
out["R2 ppo static state.apply_fn, 5 updates"] = c[0]
# R3 stylegan2 cutoff: type and traces of a static int drawn per step
rs = np.random.RandomState(0)
k = [0]


def main_step(x, metrics, cutoff):
    k[0] += 1
    return x[:, :cutoff].sum()


pm = jax.pmap(main_step, static_broadcasted_argnums=2, axis_name="batch")
vals = []
for _ in range(50):
    cutoff = rs.randint(low=1, high=14)
    cutoff = cutoff if rs.uniform() < 0.9 else 14
    vals.append(cutoff)
    pm(jnp.ones((1, 2, 14)), {}, cutoff)
out["R3 stylegan cutoff type"] = type(rs.randint(low=1, high=14)).__name__
out["R3 stylegan traces / distinct cutoffs over 50 steps"] = (k[0], len(set(vals)))
# R3b metrics dict grows after the first call
k2 = [0]


def step_D(x, metrics):
    k2[0] += 1
    metrics = dict(metrics)
    metrics["D_loss"] = x.sum()
    return metrics


def step_G(x, metrics):
    metrics = dict(metrics)
    metrics["G_loss"] = x.sum()
    return metrics


pD = jax.pmap(step_D, axis_name="batch")
pG = jax.pmap(step_G, axis_name="batch")
metrics = {}
for _ in range(4):
    metrics = pD(jnp.ones((1, 3)), metrics)
    metrics = pG(jnp.ones((1, 3)), metrics)
out["R3b stylegan metrics dict, 4 steps: p_main_step_D traces"] = k2[0]
# R4 JAX-CORL dt: growing slices until context_len
d = [0]


@jax.jit
def get_action(ts, st):
    d[0] += 1
    return st.sum(1)


ctx = 20
ts = jnp.arange(100)[None]
st = jnp.zeros((1, 100, 3))
for _episode in range(2):
    for t in range(60):
        if t < ctx:
            get_action(ts[:, : t + 1], st[:, : t + 1])
        else:
            get_action(ts[:, t - ctx + 1 : t + 1], st[:, t - ctx + 1 : t + 1])
out["R4 dt get_action, 2 episodes x 60 steps, context 20"] = d[0]
# R5 multinerf: loss_threshold weak 1.0 then strong jnp.mean(...) passed through pmap in_axes None
e = [0]


def train_pstep(x, thr):
    e[0] += 1
    return x * thr


ps = jax.pmap(train_pstep, in_axes=(0, None))
thr = 1.0
for _ in range(4):
    ps(jnp.ones((1, 3)), thr)
    thr = jnp.mean(jnp.array([0.5, 0.7]))
out["R5 multinerf loss_threshold, 4 steps"] = e[0]
# R6 microdit: jax.clear_caches() every step
f = [0]


@jax.jit
def ts_(x):
    f[0] += 1
    return x * 2


for _ in range(5):
    ts_(jnp.ones(3))
    jax.clear_caches()
out["R6 microdit clear_caches per step, 5 steps"] = f[0]
for k_, v in out.items():
    print(f"{k_}: {v}")
