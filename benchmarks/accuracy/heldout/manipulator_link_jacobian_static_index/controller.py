"""Gravity-compensating posture controller: maps link weights to joint torques."""
import jax.numpy as jnp

from robot import arm_parameters, link_jacobian

GRAVITY = jnp.array([0.0, 0.0, -9.81, 0.0, 0.0, 0.0])


class PostureController:
    def __init__(self, spec, link_masses, kp=30.0, kd=4.0):
        self.params = arm_parameters(spec)
        self.link_index = {name: i for i, name in enumerate(spec.link_names)}
        self.link_masses = link_masses  # the links heavy enough to compensate
        self.kp, self.kd = kp, kd

    def _jacobian_of(self, q, name):
        idx = self.link_index[name]
        return link_jacobian(self.params, q, body_index=idx)  # expect: RTL201

    def torques(self, q, qd, q_ref):
        """PD on the joint posture plus J^T of each heavy link's weight."""
        tau = self.kp * (q_ref - q) - self.kd * qd
        for name, mass in self.link_masses.items():
            jac = self._jacobian_of(q, name)  # expect: RTL201
            tau = tau - jac.T @ (mass * GRAVITY)
        return tau
