"""Echo-state reservoir with intrinsic plasticity (IP) on the neuron gains/biases."""
import copy
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class IPReservoir:
    def __init__(self, units, n_inputs, sr=0.9, lr_ip=5e-3, mu=0.0, sigma=0.3, seed=0):
        rng = np.random.default_rng(seed)
        w = rng.normal(size=(units, units))
        self.W = (sr * w / np.max(np.abs(np.linalg.eigvals(w)))).astype(np.float32)
        self.Win = rng.uniform(-0.5, 0.5, size=(units, n_inputs)).astype(np.float32)
        self.units = units
        self.lr_ip, self.mu, self.sigma = lr_ip, mu, sigma
        self.a = np.ones(units, dtype=np.float32)    # IP gain
        self.b = np.zeros(units, dtype=np.float32)   # IP bias

    def with_gains(self, a, b):
        """A copy of this reservoir with new IP gain and bias (weights shared)."""
        new = copy.copy(self)
        new.a, new.b = a.astype(np.float32), b.astype(np.float32)
        return new

    # The jitted step reads a and b from self, so the hash has to follow them,
    # otherwise the compiled step keeps the gains of the first call.
    def __hash__(self):
        return hash((self.units, self.a.tobytes(), self.b.tobytes()))

    def __eq__(self, other):
        return (isinstance(other, IPReservoir) and self.units == other.units
                and np.array_equal(self.a, other.a) and np.array_equal(self.b, other.b))

    @partial(jax.jit, static_argnums=0)
    def _step(self, x, u):
        pre = self.W @ x + self.Win @ u
        return jnp.tanh(self.a * pre + self.b), pre

    def run(self, inputs):
        x = jnp.zeros(self.units, jnp.float32)
        states, pres = [], []
        for u in inputs:
            x, pre = self._step(x, u)  # expect: RTL201
            states.append(x)
            pres.append(pre)
        return np.stack(states), np.stack(pres)

    def partial_fit(self, inputs):
        """One IP epoch: run the reservoir, return a copy with a and b nudged towards N(mu, sigma)."""
        states, pres = self.run(inputs)
        y, pre = states.mean(0), pres.mean(0)
        s2 = self.sigma ** 2
        db = -self.lr_ip * (-(self.mu / s2) + (y / s2) * (2 * s2 + 1 - y ** 2 + self.mu * y))
        new_a = self.a + self.lr_ip / self.a + db * pre
        return self.with_gains(new_a, self.b + db)  # expect: RTL201
