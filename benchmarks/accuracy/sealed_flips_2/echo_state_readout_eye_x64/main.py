"""Predict the next sample of a signal chunk by chunk, refitting the readout after each chunk."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from reservoir import make_reservoir, ridge_readout, run_reservoir  # noqa: E402

W, W_IN = make_reservoir()


@jax.jit
def fit_chunk(w_out, h0, inputs, targets):
    h_last, states = run_reservoir(W, W_IN, h0, inputs)
    error = jnp.sqrt(jnp.mean((states @ w_out - targets) ** 2))
    return ridge_readout(states, targets), h_last, error


def chunks(n_chunks=5, length=50):
    t = np.arange(n_chunks * length + 1, dtype=np.float32) * 0.2
    signal = np.sin(t) * np.cos(0.31 * t)
    for i in range(n_chunks):
        seg = signal[i * length : (i + 1) * length + 1]
        yield jnp.asarray(seg[:-1, None]), jnp.asarray(seg[1:])


def main():
    w_out = jnp.zeros(32, jnp.float32)
    h = jnp.zeros(32, jnp.float32)
    for inputs, targets in chunks():
        w_out, h, error = fit_chunk(w_out, h, inputs, targets)
        print(f"chunk error before refit {float(error):.4f}")


if __name__ == "__main__":
    main()
