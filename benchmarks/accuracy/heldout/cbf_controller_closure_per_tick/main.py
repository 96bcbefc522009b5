"""Closed-loop simulation: the robot drives to a goal past a drifting obstacle."""
import jax.numpy as jnp
import numpy as np

from controllers import make_safety_filter

DT = 0.1


class ObstacleTracker:
    """Stands in for the perception stack: reports where the obstacle is now."""

    def __init__(self, start, velocity):
        self.position = np.asarray(start, dtype=np.float32)
        self.velocity = np.asarray(velocity, dtype=np.float32)

    def observe(self):
        self.position = self.position + DT * self.velocity
        return jnp.asarray(self.position)


def unicycle_step(state, u):
    x, y, theta = state
    v, omega = u
    return jnp.stack([x + DT * v * jnp.cos(theta),
                      y + DT * v * jnp.sin(theta),
                      theta + DT * omega])


class Robot:
    def __init__(self, goal, radius):
        self.goal = jnp.asarray(goal, dtype=jnp.float32)
        self.radius = radius
        self.state = jnp.zeros(3, dtype=jnp.float32)

    def control_tick(self, obstacle):
        # re-create the controller so that it sees the latest obstacle estimate
        controller = make_safety_filter(self.goal, obstacle, self.radius)
        u = controller(self.state)
        self.state = unicycle_step(self.state, u)
        return u


def run_episode(n_ticks=6):
    robot = Robot(goal=[4.0, 0.5], radius=0.6)
    tracker = ObstacleTracker(start=[2.0, 0.3], velocity=[0.0, 0.2])
    log = []
    for tick in range(n_ticks):
        obstacle = tracker.observe()
        u = robot.control_tick(obstacle)
        log.append((tick, float(u[0]), float(u[1])))
    return robot.state, log


if __name__ == "__main__":
    final_state, log = run_episode()
    for tick, v, omega in log:
        print(f"tick {tick}: v={v:.3f} omega={omega:.3f}")
    print("final state", np.round(np.asarray(final_state), 3))
