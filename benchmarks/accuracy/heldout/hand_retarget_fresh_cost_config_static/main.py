"""Real-time hand retargeting demo: keypoints come from a (simulated) webcam detector each
frame and are retargeted onto the robot hand, warm-starting from the previous solution."""

import jax.numpy as jnp
import numpy as np

from retarget import N_FINGERS, N_JOINTS, build_costs, solve_retargeting

CONFIG = {"n_keypoints": 4, "align_weight": 400.0, "limit_weight": 1.0, "n_iters": 20}


def fake_detector(frame_idx):
    """Fingertip positions of a hand slowly closing, as a webcam keypoint model would give."""
    closing = 0.2 + 0.15 * frame_idx
    xs = np.array([-0.03, -0.01, 0.01, 0.03]) + 0.004 * np.sin(frame_idx)
    ys = 0.16 - 0.05 * closing * np.array([1.0, 1.1, 1.05, 0.9])
    return jnp.asarray(np.stack([xs, ys], axis=-1), dtype=jnp.float32)


class HandRetargeter:
    def __init__(self, config):
        self.config = dict(config)
        self.q = jnp.full((N_FINGERS, N_JOINTS), 0.1, dtype=jnp.float32)

    def step(self, keypoints):
        costs = build_costs(self.config)
        self.q, loss = solve_retargeting(self.q, keypoints, costs)  # expect: RTL204
        return float(loss)


def main():
    retargeter = HandRetargeter(CONFIG)
    for frame_idx in range(5):
        loss = retargeter.step(fake_detector(frame_idx))
        print(f"frame {frame_idx}: loss={loss:.6f} q0={np.round(np.asarray(retargeter.q[0]), 3)}")


if __name__ == "__main__":
    main()
