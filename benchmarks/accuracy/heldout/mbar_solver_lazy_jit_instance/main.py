"""Free-energy differences between harmonic umbrella windows with MBAR."""
import jax.numpy as jnp
import numpy as np

from solvers import mbar_update, mbar_weights

KT = 0.596  # kcal/mol at 300 K


def sample_windows(rng, centers, spring, n_per_window):
    samples = [rng.normal(c, np.sqrt(KT / spring), n_per_window) for c in centers]
    return np.concatenate(samples).astype(np.float32)


def reduced_potentials(x, centers, spring):
    bias = 0.5 * spring * (x[None, :] - centers[:, None]) ** 2
    return jnp.asarray(bias / KT, dtype=jnp.float32)


class MBAREstimator:
    def __init__(self, u_kn, N_k, tol=1e-6, max_iter=6):
        self.u_kn = u_kn
        self.N_k = jnp.asarray(N_k, dtype=jnp.float32)
        self.tol = tol
        self.max_iter = max_iter
        self.f_k = jnp.zeros(u_kn.shape[0], dtype=jnp.float32)

    def solve(self):
        for it in range(self.max_iter):
            f_new = mbar_update(self.u_kn, self.N_k, self.f_k)
            delta = float(jnp.max(jnp.abs(f_new - self.f_k)))
            self.f_k = f_new
            print(f"iter {it}: max |df| = {delta:.2e}")
            if delta < self.tol:
                break
        return self.f_k

    def window_overlap(self):
        w = mbar_weights(self.u_kn, self.N_k, self.f_k)
        return w @ w.T * self.N_k[None, :]


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    centers = np.linspace(-1.0, 1.0, 5).astype(np.float32)
    spring = 10.0
    x = sample_windows(rng, centers, spring, n_per_window=40)
    est = MBAREstimator(reduced_potentials(x, centers, spring), N_k=[40] * len(centers))
    f_k = est.solve()
    print("free energies (kT):", np.round(np.asarray(f_k), 3))
    print("overlap diagonal:", np.round(np.diag(np.asarray(est.window_overlap())), 3))
