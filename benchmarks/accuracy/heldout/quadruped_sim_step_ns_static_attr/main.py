"""Drop a quadruped trunk onto flat ground and let it settle under a stance controller.

The simulator keeps the integration step in nanoseconds (as the jaxsim API does)
and a contact-aware scheduler refines it while any foot touches the ground.
"""

import jax.numpy as jnp

from dynamics import default_params, foot_heights, integrate_step

COARSE_NS = 2_000_000  # 2 ms in flight
FINE_NS = 500_000  # 0.5 ms in stance


class TrunkSimulator:
    def __init__(self, params, z0, step_size_ns=COARSE_NS):
        self.params = params
        self.q = jnp.asarray([0.0, z0, 0.05], jnp.float32)
        self.qd = jnp.zeros(3, jnp.float32)
        self.step_size_ns = step_size_ns
        self.time_ns = 0

    def in_contact(self):
        return bool(jnp.any(foot_heights(self.q, self.params) < 0.0))

    def advance(self, hip_forces, substeps):
        for _ in range(substeps):
            self.q, self.qd = integrate_step(self.q, self.qd, hip_forces, self.params, step_size_ns=self.step_size_ns)  # expect: RTL201
            self.time_ns += self.step_size_ns


class ContactAwareScheduler:
    """Coarse steps in flight, fine steps while the feet are loaded."""

    def __init__(self, coarse_ns, fine_ns):
        self.coarse_ns = coarse_ns
        self.fine_ns = fine_ns

    def update(self, sim):
        sim.step_size_ns = self.fine_ns if sim.in_contact() else self.coarse_ns


def stance_forces(sim, target_height=0.28):
    error = target_height - float(sim.q[1])
    return jnp.full(4, 40.0 * error, jnp.float32)


def main():
    sim = TrunkSimulator(default_params(), z0=0.335)
    scheduler = ContactAwareScheduler(COARSE_NS, FINE_NS)
    for tick in range(6):
        scheduler.update(sim)
        sim.advance(stance_forces(sim), substeps=10)
        print(
            f"t={sim.time_ns / 1e6:6.1f} ms  dt={sim.step_size_ns / 1e6:.1f} ms  "
            f"z={float(sim.q[1]):.3f}  pitch={float(sim.q[2]):+.3f}  contact={sim.in_contact()}"
        )


if __name__ == "__main__":
    main()
