"""Pick a serving deployment (tensor parallelism, batch size, KV-cache block
size, chunked-prefill size) for a simulated LLM endpoint with Bayesian
optimisation: every simulated config is one trial, and the GP surrogate is
refitted on all trials so far to choose the next one."""
import itertools

import jax.numpy as jnp
import numpy as np

from surrogate import posterior_ucb

SPACE = {
    "tensor_parallel": [1, 2, 4, 8],
    "max_batch": [8, 16, 32, 64, 128],
    "kv_block": [16, 32, 64],
    "prefill_chunk": [512, 1024, 2048],
}


def encode(config):
    """Map a config to the unit cube (log2 of each knob, min-max scaled)."""
    out = []
    for name, choices in SPACE.items():
        lo, hi = np.log2(choices[0]), np.log2(choices[-1])
        out.append((np.log2(config[name]) - lo) / (hi - lo))
    return np.asarray(out, dtype=np.float32)


def simulate_goodput(config):
    """Stand-in for the serving simulator: tokens/s per GPU under an SLO."""
    tp, bs = config["tensor_parallel"], config["max_batch"]
    util = bs / (bs + 24.0) * (1.0 - 0.08 * np.log2(tp))
    slo_penalty = max(0.0, bs / tp - 24.0) * 0.9
    kv = -abs(np.log2(config["kv_block"]) - 5.0) * 3.0
    chunk = -abs(np.log2(config["prefill_chunk"]) - 10.0) * 2.0
    return float(100.0 * util - slo_penalty + kv + chunk)


class Recommender:
    def __init__(self, beta=2.0, seed=0):
        self.beta = beta
        self.rng = np.random.RandomState(seed)
        self.configs = [dict(zip(SPACE, vals)) for vals in itertools.product(*SPACE.values())]
        self.features = jnp.asarray(np.stack([encode(c) for c in self.configs]))
        self._xs, self._ys, self.trial_ids = [], [], []

    def observe(self, idx, goodput):
        self.trial_ids.append(idx)
        self._xs.append(np.asarray(self.features[idx]))  # expect: RTL102
        self._ys.append(goodput)  # expect: RTL102

    def random_trial(self):
        return int(self.rng.choice([i for i in range(len(self.configs)) if i not in self.trial_ids]))

    def suggest(self):
        x_obs = jnp.asarray(np.stack(self._xs))
        y_obs = jnp.asarray(self._ys, dtype=jnp.float32)
        scores = np.array(posterior_ucb(x_obs, y_obs, self.features, self.beta))
        scores[self.trial_ids] = -np.inf
        return int(np.argmax(scores))

    def best(self):
        i = int(np.argmax(self._ys))
        return self.configs[self.trial_ids[i]], self._ys[i]


def search(n_init=3, n_iter=4):
    rec = Recommender()
    for _ in range(n_init):
        idx = rec.random_trial()
        rec.observe(idx, simulate_goodput(rec.configs[idx]))
    for _ in range(n_iter):
        idx = rec.suggest()
        rec.observe(idx, simulate_goodput(rec.configs[idx]))
    return rec


if __name__ == "__main__":
    rec = search()
    config, goodput = rec.best()
    print("trials:", len(rec.trial_ids), "best goodput %.1f" % goodput)
    print("recommended deployment:", config)
