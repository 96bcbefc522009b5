"""What a jitted step returns, leaf by leaf, against what the state it is handed back as started as
(issue 39), on projects split over modules: a reduction that adds integers in the default integer
type (``mask.sum()``, ``jnp.sum(hits)``: int64 under x64) widening an int32 counter; a step with two
``return`` statements of tuples (``if peak is None: return x.max(), ...``) whose items are read one by
one, by an object's method (``self.peak, self.seen = ...``) or by a loop, against a ``None`` start; a
start that jax's promotion makes weak (a strong int array times a Python float: ``jnp.arange(n) *
0.5`` is a weak float) against a step that gives it back strong; a value one jitted function returns
and another is handed earlier in the loop (``reading = sense(...)`` after ``policy(reading)``), the
start coming from a reset: the other one's first call gets the reset's (an int given back by a helper
that picks between an int32 array and a Python ``0``, ``jnp.where(c, CELL_LITRES, 0)``, is int32); under
x64, float32 states advanced with a NumPy float64 step through a helper's result (``omega - dt *
torque(theta)``): at least float64, whatever the helper gives; a method's result that is an attribute
of its object (``thermostat.target(hour)`` returning ``self.setpoint``), set to a Python float at
first and to arithmetic on the object's strong fields later.
Each positive re-traces under jax (counted by ``dynamic_support``, in a subprocess) and is found
where the flip is made; its fixed twin, one change away, traces once and is not flagged; the x64
project run without x64 traces once too and is not flagged."""

from __future__ import annotations

from pathlib import Path

from dynamic_support import count_retraces_many

# The same project writer, finder and jax marker as the first projects of issue 39's flips.
from test_promoted_results import _found, _write, needs_jax

# Photon counts per pixel of a detector, kept int32 as the readout stores them; each exposure adds
# how many frames went over the threshold, a bool mask summed over frames: the default integer.
PHOTONS = {
    "readout.py": '''\
"""The detector's readout format."""

import jax.numpy as jnp

N_PIXELS = 16


def blank_counts():
    return jnp.zeros(N_PIXELS, jnp.int32)
''',
    "exposure.py": '''\
"""Count the frames of one exposure that a pixel saw a photon in."""

import jax
import jax.numpy as jnp


@jax.jit
def add_exposure(counts, frames, threshold):
    lit = frames > threshold
    return counts + @SUM@
''',
    "acquire.py": '''\
"""Acquire a few exposures."""

import jax
@X64@
import jax.numpy as jnp  # noqa: E402

from exposure import add_exposure  # noqa: E402
from readout import N_PIXELS, blank_counts  # noqa: E402


def main(exposures=3):
    counts = blank_counts()
    for i in range(exposures):
        frames = jnp.full((4, N_PIXELS), float(i), jnp.float32)
        counts = add_exposure(counts, frames, 0.5)
    return counts


if __name__ == "__main__":
    main()
''',
}


# A peak detector keeps the highest level seen so far; the jitted step takes the first frame's
# maximum when there is no peak yet, so the peak starts None and comes back an array.
PEAKS = {
    "levels.py": '''\
"""Peak level of a signal, updated one frame at a time."""

import jax
import jax.numpy as jnp


@jax.jit
def update_peak(peak, seen, frame):
    if peak is None:
        return frame.max(), jnp.ones((), jnp.int32)
    return jnp.maximum(peak, frame.max()), seen + 1
''',
    "meter.py": '''\
"""A level meter object around the jitted step."""

import jax.numpy as jnp

from levels import update_peak


class LevelMeter:
    def __init__(self):
        self.peak = @START@
        self.seen = jnp.zeros((), jnp.int32)

    def feed(self, frame):
        self.peak, self.seen = update_peak(self.peak, self.seen, frame)
        return self.peak
''',
    "monitor.py": '''\
"""Feed a few frames to the meter, and the same frames through a plain loop."""

import jax.numpy as jnp

from levels import update_peak
from meter import LevelMeter


def frames(n):
    for i in range(n):
        yield jnp.full(8, float(i), jnp.float32)


def main(n=3):
    meter = LevelMeter()
    for frame in frames(n):
        meter.feed(frame)
    return meter.peak


def plain(n=3):
    peak, seen = @START@, jnp.zeros((), jnp.int32)
    for frame in frames(n):
        peak, seen = update_peak(peak, seen, frame)
    return peak


if __name__ == "__main__":
    @RUN@()
''',
}


# Rotor blade angles start as an int array times a Python float (weakly typed) and come back advanced
# by a NumPy float32 rate (strong).
ROTOR = {
    "blades.py": '''\
"""The rotor's geometry."""

import jax.numpy as jnp
import numpy as np

N_BLADES = 5


def encoder_rate(ticks_per_turn=314):
    return np.float32(6.28 / ticks_per_turn)  # radians per tick, as the encoder reports it


def blade_angles():
    return @ANGLES@
''',
    "spin.py": '''\
"""Advance the rotor and read the blade tips."""

import jax
import jax.numpy as jnp

from blades import N_BLADES, blade_angles, encoder_rate


@jax.jit
def advance(angles, rate):
    return jnp.mod(angles + rate, 2 * jnp.pi), jnp.cos(angles)


def main(ticks=3):
    angles, rate = blade_angles(), encoder_rate()
    tips = jnp.zeros(N_BLADES)
    for _ in range(ticks):
        angles, tips = advance(angles, rate)
    return tips


if __name__ == "__main__":
    main()
''',
}


# A tank's level sensor: reset reads a float32 level; the jitted sensor step gives back the integer
# count of filled cells as the level; the jitted controller reads it before each step.
TANK = {
    "sensor.py": '''\
"""A tank's level sensor as a small jax environment."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Tank(NamedTuple):
    cells: jax.Array


class Reading(NamedTuple):
    level: jax.Array
    full: jax.Array


def reset():
    tank = Tank(jnp.zeros(8, jnp.int32))
    return tank, Reading(jnp.zeros((), jnp.float32), jnp.zeros((), bool))


CELL_LITRES = jnp.full(8, 5, jnp.int32)


def _filled(cells):
    return jnp.sum(jnp.where(cells > 0, CELL_LITRES, 0)) // 5


@jax.jit
def sense(tank, pump):
    cells = jnp.minimum(tank.cells + pump, 1)
    filled = jnp.sum(cells > 0, dtype=jnp.int32)
    return Tank(cells), Reading(@LEVEL@, filled == 8)
''',
    "control.py": '''\
"""A controller that pumps while the tank is low."""

import jax
import jax.numpy as jnp

import sensor


@jax.jit
def controller(gain, reading):
    on = (reading.level < 6.0) & ~reading.full
    return jnp.where(on, jnp.ones(8, jnp.int32), 0) * gain


def run(steps=3):
    tank, reading = sensor.reset()
    gain = jnp.ones((), jnp.int32)
    for _ in range(steps):
        @LOOP@
    return reading


if __name__ == "__main__":
    run()
''',
}

_CONTROL_FIRST = (
    "pump = controller(gain, reading)\n        tank, reading = sensor.sense(tank, pump)"
)
_SENSE_FIRST = (
    "tank, reading = sensor.sense(tank, jnp.zeros(8, jnp.int32))\n"
    "        pump = controller(gain, reading)"
)


# A float32 pendulum stepped under x64 with a time step taken from NumPy frame times (float64).
PENDULUM = {
    "dynamics.py": '''\
"""Pendulum dynamics."""

import jax
import jax.numpy as jnp


def torque(theta):
    return 9.81 * jnp.sin(theta)


@jax.jit
def euler(theta, omega, dt):
    omega = omega - dt * torque(theta)
    return theta + dt * omega, omega
''',
    "simulate.py": '''\
"""Step the pendulum at the camera's frame times."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from dynamics import euler  # noqa: E402


def main(frames=4):
    times = np.linspace(0.0, 1.0, 25)
    dt = @DT@
    theta, omega = jnp.full((3,), 0.3, jnp.float32), jnp.zeros(3, jnp.float32)
    for _ in range(frames):
        theta, omega = euler(theta, omega, dt)
    return theta


if __name__ == "__main__":
    main()
''',
}


# A thermostat's setpoint: a Python float until the day starts, then ramped with a float32 step.
THERMOSTAT = {
    "thermostat.py": '''\
"""A thermostat that ramps its setpoint during the day."""

import jax.numpy as jnp


class Thermostat:
    def __init__(self, ramp):
        self.ramp = jnp.float32(ramp)
        self.setpoint = @START@

    def target(self, hour):
        if 8 <= hour < 20:
            self.setpoint = jnp.clip(self.setpoint + self.ramp, 15.0, 25.0)
        return self.setpoint
''',
    "house.py": '''\
"""Heat the house hour by hour."""

import jax
import jax.numpy as jnp

from thermostat import Thermostat


@jax.jit
def heater_power(setpoint, temperature):
    return jnp.maximum(setpoint - temperature, 0.0) * 0.8


def main(hours=range(6, 10)):
    thermostat = Thermostat(ramp=0.5)
    temperature = jnp.float32(17.0)
    for hour in hours:
        temperature = temperature + 0.1 * heater_power(thermostat.target(hour), temperature)
    return temperature


if __name__ == "__main__":
    main()
''',
}


X64 = '\njax.config.update("jax_enable_x64", True)\n'


def _projects(tmp_path: Path) -> dict[str, Path]:
    def photons(name: str, total: str, x64: str = X64) -> tuple[str, Path]:
        return name, _write(tmp_path / name, PHOTONS, SUM=total, X64=x64)

    return dict(
        [
            photons("photons_method", "lit.sum(axis=0)"),
            photons("photons_function", "jnp.sum(lit, axis=0)"),
            photons("photons_method_fixed", "lit.sum(axis=0, dtype=jnp.int32)"),
            photons("photons_function_fixed", "jnp.sum(lit, axis=0, dtype=jnp.int32)"),
            photons("photons_cast_fixed", "jnp.sum(lit, axis=0).astype(counts.dtype)"),
            photons("photons_x32", "lit.sum(axis=0)", x64=""),
        ]
    ) | {
        "peaks_meter": _write(tmp_path / "peaks_meter", PEAKS, START="None", RUN="main"),
        "peaks_loop": _write(tmp_path / "peaks_loop", PEAKS, START="None", RUN="plain"),
        "rotor": _write(tmp_path / "rotor", ROTOR, ANGLES="jnp.arange(N_BLADES) * 1.25"),
        "rotor_divided": _write(
            tmp_path / "rotor_divided", ROTOR, ANGLES="jnp.arange(N_BLADES) / (N_BLADES / 6.28)"
        ),
        "rotor_fixed": _write(
            tmp_path / "rotor_fixed", ROTOR, ANGLES="jnp.arange(N_BLADES, dtype=jnp.float32) * 1.25"
        ),
        "tank": _write(tmp_path / "tank", TANK, LEVEL="filled", LOOP=_CONTROL_FIRST),
        "tank_helper": _write(
            tmp_path / "tank_helper", TANK, LEVEL="_filled(cells)", LOOP=_CONTROL_FIRST
        ),
        "tank_cast_fixed": _write(
            tmp_path / "tank_cast_fixed",
            TANK,
            LEVEL="filled.astype(jnp.float32)",
            LOOP=_CONTROL_FIRST,
        ),
        "tank_sensed_first": _write(
            tmp_path / "tank_sensed_first", TANK, LEVEL="filled", LOOP=_SENSE_FIRST
        ),
        "pendulum": _write(tmp_path / "pendulum", PENDULUM, DT="np.diff(times)[0]"),
        "pendulum_fixed": _write(
            tmp_path / "pendulum_fixed", PENDULUM, DT="np.float32(np.diff(times)[0])"
        ),
        "thermostat": _write(tmp_path / "thermostat", THERMOSTAT, START="20.0"),
        "thermostat_fixed": _write(
            tmp_path / "thermostat_fixed", THERMOSTAT, START="jnp.float32(20.0)"
        ),
        "peaks_fixed": _write(
            tmp_path / "peaks_fixed", PEAKS, START="jnp.full((), -jnp.inf, jnp.float32)", RUN="main"
        ),
    }


# Where each positive is reported: the reduction that makes the default integer.
EXPECTED = {
    "photons_method": [("exposure.py", 10, "RTL402")],
    "photons_function": [("exposure.py", 10, "RTL402")],
    "peaks_meter": [("meter.py", 10, "RTL403"), ("monitor.py", 22, "RTL403")],
    "peaks_loop": [("meter.py", 10, "RTL403"), ("monitor.py", 22, "RTL403")],
    "rotor": [("blades.py", 14, "RTL401")],
    "rotor_divided": [("blades.py", 14, "RTL401")],
    "tank": [("sensor.py", 20, "RTL402")],
    "tank_helper": [("sensor.py", 20, "RTL402")],
    "pendulum": [("simulate.py", 16, "RTL402")],
    "thermostat": [("thermostat.py", 9, "RTL401")],
}
# The script each project runs and the jitted function it calls, as jax names it.
RUNS = {
    "photons": ("acquire.py", "add_exposure"),
    "peaks": ("monitor.py", "update_peak"),
    "rotor": ("spin.py", "advance"),
    "tank": ("control.py", "controller"),
    "pendulum": ("simulate.py", "euler"),
    "thermostat": ("house.py", "heater_power"),
}


def test_reductions_in_the_default_integer_are_found_where_they_widen(tmp_path: Path) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    projects = _projects(tmp_path)
    # x64 is process-wide: the programs that turn it on share a subprocess of their own.
    x32 = [n for n in projects if n.endswith("x32")]
    x64 = [n for n in projects if n not in x32]
    for names in (x64, x32):
        scripts = [projects[n] / RUNS[n.split("_")[0]][0] for n in names]
        runs = count_retraces_many(scripts, cwd=tmp_path)
        for name, report in zip(names, runs, strict=True):
            traces = {f.name: n for f, n in report.traces.items()}
            assert traces.get(RUNS[name.split("_")[0]][1]) == (2 if name in EXPECTED else 1), (
                name,
                report.summary(),
            )
