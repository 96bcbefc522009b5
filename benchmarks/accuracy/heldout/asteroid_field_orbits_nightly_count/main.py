"""Nightly ephemeris service: predict where the catalogued asteroids that fall
inside tonight's survey field will be at the end of the night."""

from dataclasses import dataclass

import numpy as np
import jax.numpy as jnp

from kepler import propagate_2body, radec_from_state


@dataclass
class OrbitCatalog:
    ids: np.ndarray
    states: np.ndarray  # (N, 6) heliocentric position / velocity at epoch

    @classmethod
    def synthetic(cls, n, seed=7):
        rng = np.random.default_rng(seed)
        a = rng.uniform(2.1, 3.3, n)
        lon = rng.uniform(0.0, 2 * np.pi, n)
        inc = rng.normal(0.0, 0.1, n)
        pos = np.stack([a * np.cos(lon), a * np.sin(lon), a * np.sin(inc)], axis=1)
        speed = np.sqrt(2.9591220828559115e-04 / a)
        vel = np.stack([-speed * np.sin(lon), speed * np.cos(lon), np.zeros(n)], axis=1)
        return cls(ids=np.arange(n), states=np.concatenate([pos, vel], 1).astype(np.float32))


@dataclass
class SurveyField:
    center_lon: float
    radius: float

    def contains(self, states):
        lon = np.arctan2(states[:, 1], states[:, 0])
        sep = np.abs(np.angle(np.exp(1j * (lon - self.center_lon))))
        return sep < self.radius


class NightlyPredictor:
    def __init__(self, catalog, observer):
        self.catalog = catalog
        self.observer = jnp.asarray(observer, dtype=jnp.float32)

    def objects_in_field(self, field):
        in_field = field.contains(self.catalog.states)
        ids = self.catalog.ids[in_field]
        visible = self.catalog.states[in_field]  # expect: RTL104
        return ids, visible

    def predict(self, field, night_hours):
        ids, visible = self.objects_in_field(field)
        end_states = propagate_2body(jnp.asarray(visible), night_hours / 24.0)
        ra, dec = radec_from_state(end_states, self.observer)
        return ids, np.degrees(np.asarray(ra)), np.degrees(np.asarray(dec))


def run_survey():
    catalog = OrbitCatalog.synthetic(400)
    predictor = NightlyPredictor(catalog, observer=[1.0, 0.0, 0.0])
    schedule = [(0.3, 0.25), (1.4, 0.20), (2.6, 0.30), (4.1, 0.22)]
    for night, (center, radius) in enumerate(schedule):
        field = SurveyField(center_lon=center, radius=radius)
        ids, ra, dec = predictor.predict(field, night_hours=9.0)
        print(f"night {night}: {len(ids)} objects, first RA {ra[0]:.2f} Dec {dec[0]:.2f}")


if __name__ == "__main__":
    run_survey()
