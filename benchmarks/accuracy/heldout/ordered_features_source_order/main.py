"""Score readings from two feeds with one linear model."""

import jax.numpy as jnp
import numpy as np
from features import score
from sources import ocean_buoy, weather_station

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    weights = jnp.linspace(-1.0, 1.0, 18)
    for hour in range(3):
        for feed in (weather_station, ocean_buoy):
            print(hour, feed.__name__, score(feed(rng), weights))
