"""Phase picker: walks a sorted list of predicted arrival times while scanning a seismogram in windows."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class PickerState(NamedTuple):
    cursor: jax.Array  # index of the next predicted arrival not yet passed
    energy: jax.Array  # running energy of the current window
    picks: jax.Array  # per-arrival energy when it was passed


class ArrivalPicker:
    def __init__(self, arrival_times, window):
        self.arrival_times = arrival_times  # sorted, float64 under x64
        self.window = window

    def init(self, trace_times):
        # The first arrival at or after the start of the record.
        cursor = jnp.argmax(self.arrival_times >= trace_times[0])  # expect: RTL402
        return PickerState(
            cursor=cursor,
            energy=jnp.zeros(()),
            picks=jnp.zeros(self.arrival_times.shape),
        )

    def advance(self, state, times, samples):
        energy = 0.9 * state.energy + jnp.sum(samples**2)
        passed = jnp.searchsorted(self.arrival_times, times[-1], side="right")  # expect: RTL402
        hit = (jnp.arange(self.arrival_times.shape[0]) >= state.cursor) & (jnp.arange(self.arrival_times.shape[0]) < passed)
        picks = jnp.where(hit, energy, state.picks)
        return PickerState(cursor=passed, energy=energy, picks=picks)
