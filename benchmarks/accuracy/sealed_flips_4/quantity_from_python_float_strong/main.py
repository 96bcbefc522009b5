"""Fly a thrown ball until it lands and report its range."""

import jax

from ballistics import advance, launch


@jax.jit
def flight_step(flight, dt):
    return advance(flight, dt)


def main(speed=20.0, angle_deg=40.0, dt=0.02, max_steps=400):
    flight = launch(speed, angle_deg)
    for step in range(max_steps):
        flight = flight_step(flight, dt)
        if float(flight.y.value) <= 0.0:
            break
    print(f"landed after {step + 1} steps at x = {float(flight.x.value):.1f} {flight.x.unit}")


if __name__ == "__main__":
    main()
