"""Delay-and-sum beam stack of one event's station recordings.

Each catalogued event is only picked at the stations where the arrival clears the
signal-to-noise threshold, so the set of usable stations changes from event to event.
"""

import jax
import jax.numpy as jnp
import numpy as np

from network import DT, NETWORK, synthetic_trace, snr

SNR_MIN = 6.0


@jax.jit
def beam_stack(traces, shifts):
    """Align every trace by its shift (in samples) and average them into one beam."""
    aligned = [jnp.roll(tr, -s) for tr, s in zip(traces, shifts)]
    beam = sum(aligned) / len(aligned)
    energy = jnp.sum(beam**2)
    return beam, energy


class EventProcessor:
    def __init__(self, velocity=5.5, snr_min=SNR_MIN):
        self.velocity = velocity
        self.snr_min = snr_min
        self.rng = np.random.default_rng(7)

    def gather(self, event):
        traces, shifts, used = [], [], []
        for sta in NETWORK:
            tr = synthetic_trace(sta, event, self.rng)
            if snr(tr) < self.snr_min:
                continue
            dist = np.hypot(sta.x_km - event["x_km"], sta.y_km - event["y_km"])
            traces.append(jnp.asarray(tr))  # expect: RTL403
            shifts.append(jnp.int32(round(dist / self.velocity / DT)))  # expect: RTL403
            used.append(sta.code)
        return traces, shifts, used

    def process(self, event):
        traces, shifts, used = self.gather(event)
        beam, energy = beam_stack(traces, shifts)
        return {"stations": used, "energy": float(energy), "peak": float(jnp.max(jnp.abs(beam)))}


def catalogue():
    return [
        {"id": "ev01", "x_km": 2.0, "y_km": 1.0, "magnitude": 1.0, "velocity": 5.5},
        {"id": "ev02", "x_km": 10.0, "y_km": 10.0, "magnitude": 1.1, "velocity": 5.5},
        {"id": "ev03", "x_km": -8.0, "y_km": 2.0, "magnitude": 0.9, "velocity": 5.5},
        {"id": "ev04", "x_km": 1.0, "y_km": -3.0, "magnitude": 1.2, "velocity": 5.5},
    ]


if __name__ == "__main__":
    proc = EventProcessor()
    for ev in catalogue():
        res = proc.process(ev)
        print(ev["id"], len(res["stations"]), "stations", f"energy={res['energy']:.3f}")
