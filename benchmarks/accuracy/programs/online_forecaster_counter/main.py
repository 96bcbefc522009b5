"""An online forecaster that refits an AR(2) model to everything it has observed so far."""

import jax
import jax.numpy as jnp


@jax.jit
def fit_ar2(history):
    lagged = jnp.stack([history[1:-1], history[:-2]], axis=1)
    coef, *_ = jnp.linalg.lstsq(lagged, history[2:])
    return coef @ jnp.array([history[-1], history[-2]])


class OnlineForecaster:
    def __init__(self, capacity):
        self.buffer = jnp.zeros(capacity)
        self.seen = 0

    def observe(self, value):
        self.buffer = self.buffer.at[self.seen].set(value)
        self.seen += 1

    def forecast(self):
        return fit_ar2(self.buffer[: self.seen])  # expect: RTL101


def run(stream, warmup=6):
    model = OnlineForecaster(len(stream))
    forecasts = []
    for value in stream:
        model.observe(value)
        if model.seen >= warmup:
            forecasts.append(float(model.forecast()))
    return forecasts


if __name__ == "__main__":
    print(run([float(v) for v in jnp.sin(jnp.linspace(0.0, 5.0, 9))]))
