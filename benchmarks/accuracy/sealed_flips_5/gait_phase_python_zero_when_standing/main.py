"""Stand for a moment, then trot: send foot height targets to the leg controllers every control tick."""

import jax.numpy as jnp

from controller import foot_targets
from gait import GaitScheduler


def command_schedule(n_ticks, start_walking=10):
    for tick in range(n_ticks):
        yield tick >= start_walking


def main(n_ticks=60):
    gait = GaitScheduler(stride_hz=2.0, dt=0.02)
    swing_height = jnp.float32(0.08)
    body_height = jnp.float32(-0.30)
    lowest = []
    for walking in command_schedule(n_ticks):
        phase = gait.advance(walking)
        targets = foot_targets(phase, swing_height, body_height)
        lowest.append(float(targets.min()))
    print(f"final phase {float(gait.phase):.2f}, lowest target {min(lowest):.3f} m")


if __name__ == "__main__":
    main()
