"""Run a few control ticks of a 6-joint arm holding a posture against gravity."""
import jax
import jax.numpy as jnp

from controller import PostureController
from robot import ArmSpec

ARM = ArmSpec(
    link_names=("base", "shoulder", "upper_arm", "elbow", "forearm", "wrist"),
    joint_axes=(2, 1, 1, 0, 1, 2),
    link_lengths=(0.10, 0.12, 0.35, 0.05, 0.30, 0.08),
)
MASSES = {"upper_arm": 2.1, "forearm": 1.4, "wrist": 0.6}


@jax.jit
def semi_implicit_euler(q, qd, tau, dt):
    qdd = tau - 0.5 * qd  # unit inertia, viscous damping
    qd = qd + dt * qdd
    return q + dt * qd, qd


def run(ticks=4, dt=0.01):
    ctrl = PostureController(ARM, MASSES)
    q_ref = jnp.array([0.0, 0.3, -0.4, 0.1, 0.2, 0.0])
    q, qd = jnp.zeros(6), jnp.zeros(6)
    for tick in range(ticks):
        tau = ctrl.torques(q, qd, q_ref)
        q, qd = semi_implicit_euler(q, qd, tau, dt)
        print(f"tick {tick}: |tau| = {float(jnp.linalg.norm(tau)):.3f}")
    return q


if __name__ == "__main__":
    run()
