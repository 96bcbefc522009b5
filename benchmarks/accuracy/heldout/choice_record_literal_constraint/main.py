"""Score a simulated record and an edited one with the same jitted summary."""

import jax
from records import constrain, simulate


@jax.jit
def summarise(record):
    return record.value - record.mean, record.log_weight


if __name__ == "__main__":
    record = simulate(jax.random.PRNGKey(0), 2.0)
    print(summarise(record))
    edited = constrain(record, 5.0)  # expect: RTL401
    print(summarise(edited))
    print(summarise(constrain(record, 4.0)))  # expect: RTL401
