"""Sample joint trajectories for a queue of pick-and-place plans and check joint limits."""
import numpy as np
import jax
import jax.numpy as jnp

from planner import build_segments

N_SAMPLES = 64
JOINT_LIMITS = jnp.array([2.6, 1.9, 2.8], dtype=jnp.float32)


@jax.jit
def sample_trajectory(segments, t_query):
    q = jnp.zeros((t_query.shape[0], 3), dtype=jnp.float32)
    for seg in segments:
        s = jnp.clip((t_query - seg["t0"]) / seg["dt"], 0.0, 1.0)
        basis = jnp.stack([jnp.ones_like(s), s, s**2, s**3], axis=-1)
        inside = (t_query >= seg["t0"]) & (t_query <= seg["t0"] + seg["dt"])
        q = jnp.where(inside[:, None], basis @ seg["coeffs"], q)
    return q


@jax.jit
def limit_margin(q):
    return jnp.min(JOINT_LIMITS - jnp.abs(q), axis=0)


def make_plan_queue(rng):
    plans = []
    for n_waypoints in (4, 5, 4, 6):
        waypoints = rng.uniform(-1.5, 1.5, size=(n_waypoints, 3))
        durations = rng.uniform(0.5, 1.2, size=n_waypoints - 1)
        plans.append((waypoints, durations))
    return plans


def execute_queue(seed=11):
    rng = np.random.default_rng(seed)
    for i, (waypoints, durations) in enumerate(make_plan_queue(rng)):
        segments, total = build_segments(waypoints, durations)
        t_query = jnp.linspace(0.0, total, N_SAMPLES, dtype=jnp.float32)
        q = sample_trajectory(segments, t_query)
        margin = limit_margin(q)
        ok = bool(jnp.all(margin > 0))
        print(f"plan {i}: {len(segments)} segments, T={total:.2f}s, within limits={ok}")


if __name__ == "__main__":
    execute_queue()
