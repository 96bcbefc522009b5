"""Simulate a zone through a morning: the schedule service comes online after two hours."""

import jax.numpy as jnp

from controller import ZoneThermostat

CONFIG = {
    "setpoint": 20.0,  # expect: RTL401
    "start": 16.0,
    "gains": [0.9, 0.2, 0.1],
}


class ScheduleService:
    """Comfort setpoints per hour; not reachable until `online_at`."""

    def __init__(self, online_at):
        self.online_at = online_at
        self.table = jnp.array([20.0, 20.0, 21.0, 21.5, 22.0, 22.0, 21.0, 20.5], jnp.float32)

    def setpoint(self, hour):
        if hour < self.online_at:
            return None
        return self.table[hour]


def main():
    zone = ZoneThermostat(CONFIG)
    schedule = ScheduleService(online_at=2)
    for hour in range(8):
        zone.follow(schedule.setpoint(hour))
        temperature = zone.tick()
        print(f"hour {hour}: {temperature:.2f} C")
    print(f"heating energy: {zone.energy:.2f}")


if __name__ == "__main__":
    main()
