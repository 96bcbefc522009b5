"""Stimulation protocols: a step current and how often the recording samples the voltage."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Protocol:
    name: str
    amplitude: float  # nA
    record_every: int  # steps between recorded samples

    def checkpoints(self, n_steps):
        return list(range(self.record_every, n_steps, self.record_every))  # expect: RTL102, RTL403


PROTOCOLS = [
    Protocol("rheobase", 0.05, 40),
    Protocol("step_low", 0.10, 40),
    Protocol("step_high", 0.30, 25),
    Protocol("long_sample", 0.20, 50),
]
