"""Walk-forward backtest of an AR(2) forecaster: refit on the history so far, predict the next point."""

import jax
import jax.numpy as jnp


@jax.jit
def fit_and_predict(history):
    lagged = jnp.stack([history[1:-1], history[:-2]], axis=1)
    target = history[2:]
    coef, *_ = jnp.linalg.lstsq(lagged, target)
    return coef @ jnp.array([history[-1], history[-2]])


def backtest(series, warmup):
    predictions = []
    t = warmup
    while t < len(series):
        predictions.append(fit_and_predict(series[:t]))  # expect: RTL101
        t += 1
    return jnp.stack(predictions)


if __name__ == "__main__":
    series = jnp.sin(jnp.linspace(0.0, 6.0, 12))
    print(backtest(series, 8))
