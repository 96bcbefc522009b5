"""An attribute that an object stores as one pytree node and that a method hands to a jitted step and
stores back as another (issue 39, capability C): ``self.track = Track(...)`` in ``__init__`` (a
NamedTuple, or a dataclass registered as a pytree), then ``self.track = self._advance(self.track, x)``
in a method that runs per frame, the step (or a helper it calls, in another module) ending in ``return
pos, vel``, ``tuple(...)`` or a dict display: jax sees the class on the first call and a plain
container on the next, so the step traces twice. Found where the plain container is written (the
line that loses the class); its twins that give back the class, or that start as the same plain
tuple, trace once and stay clean.
The same node lost by a second jitted function of a loop (``p = drift(p, dt)``, then every other
step ``p = clamp(p)``, ``clamp`` a jit a factory makes, ending in ``return pos, vel``): ``drift``
gets the class first and the pair after, told where the pair is written.
Each positive re-traces under jax (``dynamic_support``, in a subprocess)."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _traced_as_expected, _write, needs_jax

# A 1-D tracker keeps its estimate as a NamedTuple; the jitted update is a static method bound in
# __init__, and the blend it calls lives in another module and returns @BACK@.
TRACKER = {
    "estimate.py": '''\
"""Position and velocity estimates of a 1-D track."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Track(NamedTuple):
    pos: jax.Array
    vel: jax.Array


def still(n):
    return Track(jnp.zeros(n), jnp.zeros(n))


def blend(track, seen, gain):
    pos, vel = track
    new_vel = vel + gain * (seen - pos)
    new_pos = pos + new_vel
    return @BACK@
''',
    "tracker.py": '''\
"""An alpha-beta style tracker that updates its estimate once per frame."""

import jax

import estimate


class Tracker:
    def __init__(self, n, gain=0.3):
        self.gain = gain
        self.track = estimate.still(n)
        self._step = jax.jit(self.advance)

    @staticmethod
    def advance(track, seen, gain):
        return estimate.blend(track, seen, gain)

    def observe(self, seen):
        self.track = self._step(self.track, seen, self.gain)
        return self.track
''',
    "main.py": '''\
"""Feed a few noisy frames to the tracker."""

import jax.numpy as jnp

from tracker import Tracker


def main(frames=4):
    tracker = Tracker(3)
    for i in range(frames):
        tracker.observe(jnp.full((3,), float(i), jnp.float32))
    return tracker.track


if __name__ == "__main__":
    main()
''',
}

# A pendulum whose state is a registered dataclass set in __init__; the jitted module-level step
# gives it back as @BACK@ (a list or the class).
PENDULUM = {
    "pendulum.py": '''\
"""A damped pendulum integrated one step per call."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Swing:
    theta: jax.Array
    omega: jax.Array


@jax.jit
def tick(state, dt):
    theta, omega = state.theta, state.omega
    omega = omega - dt * (jnp.sin(theta) + 0.1 * omega)
    return @BACK@


class Pendulum:
    def __init__(self):
        self.state = @START@

    def run(self, steps, dt=0.01):
        count = 0
        while count < steps:
            self.state = tick(self.state, dt)
            count += 1
''',
    "main.py": '''\
"""Swing the pendulum for a while."""

from pendulum import Pendulum


def main():
    pendulum = Pendulum()
    pendulum.run(3)
    return pendulum.state


if __name__ == "__main__":
    main()
''',
}

# Particles drift every step and are clamped into a box every other step by a second jitted
# function, made by a factory; the clamp gives back @BACK@.
PARTICLES = {
    "cloud.py": '''\
"""A cloud of particles in a box."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Cloud(NamedTuple):
    pos: jax.Array
    vel: jax.Array


def at_rest(n):
    return Cloud(jnp.zeros(n), jnp.linspace(-1.0, 1.0, n))


@jax.jit
def drift(cloud, dt):
    return Cloud(cloud.pos + dt * cloud.vel, 0.99 * cloud.vel)


def make_clamp(limit):
    @jax.jit
    def clamp(cloud):
        pos, vel = cloud
        return @BACK@

    return clamp
''',
    "main.py": '''\
"""Let the cloud drift, clamping it every other step."""

from cloud import at_rest, drift, make_clamp


def main(steps=6):
    cloud = at_rest(4)
    clamp = make_clamp(0.2)
    step = 0
    while step < steps:
        cloud = drift(cloud, 0.1)
        if step % 2 == 1:
            cloud = clamp(cloud)
        step += 1
    return cloud


if __name__ == "__main__":
    main()
''',
}

_CLAMPED = "jnp.clip(pos, -limit, limit)"
_SWING = "Swing(jnp.array(0.5, jnp.float32), jnp.array(0.0, jnp.float32))"
_PAIR = "(jnp.array(0.5, jnp.float32), jnp.array(0.0, jnp.float32))"


def _projects(tmp_path: Path) -> dict[str, Path]:
    def tracker(name: str, back: str) -> Path:
        return _write(tmp_path / name, TRACKER, BACK=back)

    def pendulum(name: str, start: str, back: str) -> Path:
        return _write(tmp_path / name, PENDULUM, START=start, BACK=back)

    def particles(name: str, back: str) -> Path:
        return _write(tmp_path / name, PARTICLES, BACK=back)

    return {
        "particles_pair": particles("particles_pair", f"{_CLAMPED}, vel"),
        "particles_list": particles("particles_list", f"[{_CLAMPED}, vel]"),
        "particles_class_fixed": particles("particles_class_fixed", f"Cloud({_CLAMPED}, vel)"),
        "tracker_pair": tracker("tracker_pair", "new_pos, new_vel"),
        "tracker_tuple_call": tracker("tracker_tuple_call", "tuple((new_pos, new_vel))"),
        "tracker_dict": tracker("tracker_dict", '{"pos": new_pos, "vel": new_vel}'),
        "tracker_class_fixed": tracker("tracker_class_fixed", "Track(new_pos, new_vel)"),
        "pendulum_list": pendulum("pendulum_list", _SWING, "[theta + dt * omega, omega]"),
        "pendulum_class_fixed": pendulum(
            "pendulum_class_fixed", _SWING, "Swing(theta + dt * omega, omega)"
        ),
        # Starts as the plain pair it comes back as: one structure (no fields read on it).
        "pendulum_pair_fixed": _write(
            tmp_path / "pendulum_pair_fixed",
            {
                **PENDULUM,
                "pendulum.py": PENDULUM["pendulum.py"].replace("state.theta, state.omega", "state"),
            },
            START=_PAIR,
            BACK="theta + dt * omega, omega",
        ),
    }


# Where each positive is told: the plain container the step (or its helper) writes.
EXPECTED = {
    "particles_pair": [("cloud.py", 27, "RTL403")],
    "particles_list": [("cloud.py", 27, "RTL403")],
    "tracker_pair": [("estimate.py", 22, "RTL403")],
    "tracker_tuple_call": [("estimate.py", 22, "RTL403")],
    "tracker_dict": [("estimate.py", 22, "RTL403")],
    "pendulum_list": [("pendulum.py", 20, "RTL403")],
}
# The script each project runs and the jitted function it calls, as jax names it.
RUNS = {
    "tracker": ("main.py", "advance"),
    "pendulum": ("main.py", "tick"),
    "particles": ("main.py", "drift"),
}


def test_a_class_given_back_as_a_plain_container_is_told_where_it_is_written(
    tmp_path: Path,
) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


def test_the_message_says_the_container_is_made_there(tmp_path: Path) -> None:
    root = _write(tmp_path / "tracker", TRACKER, BACK="new_pos, new_vel")
    from retracelint.config import Settings
    from retracelint.engine import analyse

    (finding,) = analyse([str(root)], Settings(cache=False, select=("RTL",))).findings
    assert "self.track starts as a Track and is made here into a plain tuple of 2" in (
        finding.message
    )


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    _traced_as_expected(_projects(tmp_path), EXPECTED, RUNS, tmp_path)
