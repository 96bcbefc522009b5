"""Two sensor feeds that report the same channels, each in its own order."""

from collections import OrderedDict

import numpy as np

WEATHER_CHANNELS = ("temperature", "humidity", "pressure")
BUOY_CHANNELS = ("pressure", "temperature", "humidity")  # expect: RTL403


def read_feed(channels, rng, n=6):
    record = OrderedDict()  # expect: RTL403
    for name in channels:
        record[name] = rng.standard_normal(n).astype(np.float32)
    return record


def weather_station(rng):
    return read_feed(WEATHER_CHANNELS, rng)


def ocean_buoy(rng):
    return read_feed(BUOY_CHANNELS, rng)
