"""Zero-noise extrapolation of a two-qubit VQE energy on a simulated noisy device."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

ZZ = jnp.diag(jnp.array([1.0, -1.0, -1.0, 1.0]))
X = jnp.array([[0.0, 1.0], [1.0, 0.0]])
I2 = jnp.eye(2)
HAMILTONIAN = ZZ + 0.5 * (jnp.kron(X, I2) + jnp.kron(I2, X))


class NoisyDevice:
    """Simulator settings. Hashable by value so it can be a static jit argument."""

    def __init__(self, n_qubits=2, depolarizing=0.02, noise_scale=1.0):
        self.n_qubits = n_qubits
        self.depolarizing = depolarizing
        self.noise_scale = noise_scale

    def _key(self):
        return (self.n_qubits, self.depolarizing, self.noise_scale)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, NoisyDevice) and self._key() == other._key()

    def folded(self, scale):
        """The same device with its noise stretched by unitary folding."""
        return NoisyDevice(self.n_qubits, self.depolarizing, noise_scale=scale)


def ry(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]])


def ansatz_state(params):
    psi = jnp.zeros(4).at[0].set(1.0)
    psi = jnp.kron(ry(params[0]), ry(params[1])) @ psi
    cnot = jnp.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], dtype=psi.dtype)
    psi = cnot @ psi
    return jnp.kron(ry(params[2]), ry(params[3])) @ psi


@partial(jax.jit, static_argnums=1)
def noisy_energy(params, device):
    psi = ansatz_state(params)
    rho = jnp.outer(psi, psi)
    p = 1.0 - (1.0 - device.depolarizing) ** (3 * device.noise_scale)
    rho = (1.0 - p) * rho + p * jnp.eye(2 ** device.n_qubits) / 2 ** device.n_qubits
    return jnp.trace(rho @ HAMILTONIAN)


class ZNEEstimator:
    def __init__(self, device, scale_factors=(1.0, 1.5, 2.0, 3.0)):
        self.device = device
        self.scale_factors = scale_factors

    def measure(self, params):
        return noisy_energy(params, self.device)  # expect: RTL201

    def mitigated_energy(self, params):
        base = self.device
        energies = []
        for scale in self.scale_factors:
            # fold the circuit: stretch the noise, then measure again
            self.device = base.folded(scale)  # expect: RTL201
            energies.append(float(self.measure(params)))
        self.device = base
        coeffs = np.polyfit(self.scale_factors, energies, deg=1)
        return coeffs[-1], energies


if __name__ == "__main__":
    params = jnp.array([0.3, -0.4, 1.1, 0.2])
    estimator = ZNEEstimator(NoisyDevice())
    zero_noise, raw = estimator.mitigated_energy(params)
    print("raw energies:", np.round(raw, 4))
    print("extrapolated energy:", round(float(zero_noise), 4))
