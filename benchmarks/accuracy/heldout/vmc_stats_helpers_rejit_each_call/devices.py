"""Which devices this process computes on, and whether helpers built for them are stale."""

import collections

import jax

my_devices = jax.devices()
# The device set the statistics helpers were last built for (None: never built).
helper_devices = None


def devices_updated():
    """True when the device set changed since the helpers were built, so they must be rebuilt."""
    if collections.Counter(helper_devices or []) == collections.Counter(my_devices):
        return False
    return True
