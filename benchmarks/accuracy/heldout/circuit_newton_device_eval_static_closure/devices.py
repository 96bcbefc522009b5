"""Device models and the netlist of a small diode rectifier."""

from dataclasses import dataclass, field

import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class DiodeParams:
    i_sat: float = 1e-12
    v_thermal: float = 0.02585
    ideality: float = 1.8


def make_diode_eval(params, incidence):
    """Currents the diodes inject into each node, as a function of the node voltages."""
    a = jnp.asarray(incidence, dtype=jnp.float32)
    nvt = params.ideality * params.v_thermal

    def eval_devices(v):
        vd = jnp.clip(a @ v, -5.0, 0.9)
        i_d = params.i_sat * (jnp.exp(vd / nvt) - 1.0)
        return a.T @ i_d

    return eval_devices


@dataclass
class Circuit:
    """Node 0: source through 1 kOhm; diode from node 0 to node 1; node 1: 10 uF || 2 kOhm load."""

    r_source: float = 1e3
    r_load: float = 2e3
    c_load: float = 10e-6
    diode: DiodeParams = field(default_factory=DiodeParams)

    def conductance(self):
        return np.array([[1.0 / self.r_source, 0.0], [0.0, 1.0 / self.r_load]], dtype=np.float32)

    def capacitance(self):
        return np.array([1e-9, self.c_load], dtype=np.float32)

    def incidence(self):
        return np.array([[1.0, -1.0]], dtype=np.float32)

    def device_model(self):
        return make_diode_eval(self.diode, self.incidence())
