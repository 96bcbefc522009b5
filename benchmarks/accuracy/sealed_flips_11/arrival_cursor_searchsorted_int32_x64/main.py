"""Pick phase energies from a synthetic seismogram in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from picker import ArrivalPicker  # noqa: E402

WINDOW = 50


def synthetic_record(n=400, dt=0.01):
    times = jnp.arange(n) * dt
    key = jax.random.PRNGKey(3)
    noise = 0.05 * jax.random.normal(key, (n,))
    signal = jnp.sin(40.0 * times) * jnp.exp(-((times - 2.0) ** 2) / 0.1)
    return times, signal + noise


def main():
    times, samples = synthetic_record()
    picker = ArrivalPicker(jnp.array([0.7, 1.6, 2.1, 3.3]), WINDOW)
    advance = jax.jit(picker.advance)
    state = picker.init(times)
    for start in range(0, times.shape[0], WINDOW):
        state = advance(state, times[start : start + WINDOW], samples[start : start + WINDOW])
        print(f"window at {float(times[start]):.2f}s: cursor={int(state.cursor)} ({state.cursor.dtype})")
    print("picks", state.picks)


if __name__ == "__main__":
    main()
