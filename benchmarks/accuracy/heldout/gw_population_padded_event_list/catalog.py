"""Per-event posterior samples of the primary mass, as released by the
parameter-estimation runs: every event has its own number of samples."""
import numpy as np

MAX_SAMPLES = 128
FILL_MASS = 20.0


def synthetic_catalog(seed=3, n_events=6):
    rng = np.random.RandomState(seed)
    names = [f"GW{190400 + 17 * i:06d}" for i in range(n_events)]
    catalog = {}
    for name in names:
        true_m1 = 35.0 if rng.rand() < 0.3 else 8.0 * (1.0 + 4.0 * rng.rand())
        n = rng.randint(40, MAX_SAMPLES)
        samples = true_m1 * np.exp(0.15 * rng.randn(n))
        catalog[name] = {
            "mass_1_source": samples.astype(np.float32),
            # PE prior uniform in detector-frame component masses ~ m1
            "log_prior": np.log(samples).astype(np.float32),
        }
    return catalog


def pad_event(posterior, size=MAX_SAMPLES):
    m1 = posterior["mass_1_source"][:size]
    n = m1.shape[0]
    out = {
        "m1": np.full(size, FILL_MASS, np.float32),
        "log_prior": np.zeros(size, np.float32),
        "mask": np.zeros(size, bool),
    }
    out["m1"][:n] = m1
    out["log_prior"][:n] = posterior["log_prior"][:size]
    out["mask"][:n] = True
    return out


def load_events(catalog):
    events = []
    for name in sorted(catalog):
        events.append(pad_event(catalog[name]))
    return events
