"""Turn each open question's community samples into a submitted mixture forecast."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from mixture import fit_mixture

N_SAMPLES = 200


@dataclass
class ContinuousQuestion:
    qid: int
    title: str
    low: float
    high: float

    def community_samples(self, rng):
        mid = 0.5 * (self.low + self.high)
        width = self.high - self.low
        a = rng.normal(mid - 0.15 * width, 0.08 * width, N_SAMPLES // 2)
        b = rng.normal(mid + 0.2 * width, 0.05 * width, N_SAMPLES - N_SAMPLES // 2)
        return jnp.asarray(np.concatenate([a, b]), dtype=jnp.float32)


class Forecaster:
    def __init__(self, seed=0):
        self.key = jax.random.PRNGKey(seed)
        self.rng = np.random.default_rng(seed)

    def predict(self, question):
        samples = question.community_samples(self.rng)
        norm = (samples - question.low) / (question.high - question.low)
        self.key, sub = jax.random.split(self.key)
        params, loss = fit_mixture(norm, sub)
        locs = question.low + params["loc"] * (question.high - question.low)
        return {"qid": question.qid, "locs": np.asarray(locs).round(2).tolist(), "nll": loss}


def open_questions():
    return [
        ContinuousQuestion(101, "Peak river discharge (m3/s)", 200.0, 1800.0),
        ContinuousQuestion(102, "Wheat price in December (USD/t)", 180.0, 420.0),
        ContinuousQuestion(103, "Number of named storms", 5.0, 30.0),
        ContinuousQuestion(104, "Global CO2 at Mauna Loa (ppm)", 415.0, 435.0),
    ]


if __name__ == "__main__":
    forecaster = Forecaster()
    for q in open_questions():
        pred = forecaster.predict(q)
        print(pred["qid"], pred["locs"], f"nll={pred['nll']:.3f}")
