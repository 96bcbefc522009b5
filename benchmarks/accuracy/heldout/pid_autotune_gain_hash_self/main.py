"""Crude online auto-tuning of a PID position loop: raise kp while the ITAE improves."""

import jax.numpy as jnp

from controller import PIDController


def itae(xs, setpoint, dt):
    t = (jnp.arange(xs.shape[0]) * dt)[:, None]
    return float(jnp.sum(t * jnp.abs(setpoint - xs)) * dt)


class GainTuner:
    def __init__(self, ctrl, step=1.3):
        self.ctrl = ctrl
        self.step = step
        self.best = None

    def evaluate(self, x0, setpoint):
        xs = self.ctrl.closed_loop(x0, setpoint)  # expect: RTL201
        return itae(xs, setpoint, self.ctrl.dt)

    def iterate(self, x0, setpoint):
        cost = self.evaluate(x0, setpoint)
        if self.best is None or cost < self.best[0]:
            self.best = (cost, self.ctrl.kp)
        self.ctrl = self.ctrl.retuned(kp=round(self.ctrl.kp * self.step, 4))  # expect: RTL201
        return cost


def main():
    ctrl = PIDController(kp=0.8, ki=0.4, kd=0.02)
    tuner = GainTuner(ctrl)
    x0 = jnp.zeros(3)
    setpoint = jnp.array([1.0, 0.5, -0.5])
    for it in range(5):
        cost = tuner.iterate(x0, setpoint)
        print(f"iter {it}: itae={cost:.4f}")
    print("best kp:", tuner.best[1])


if __name__ == "__main__":
    main()
