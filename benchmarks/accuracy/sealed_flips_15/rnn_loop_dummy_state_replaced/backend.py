"""The backend's generic recurrent loop: call a layer's step on each time step, threading its states.
A layer without states still gets one (a dummy) so that every step has the same signature."""

import jax.numpy as jnp


def rnn(step_function, inputs, initial_states=()):
    states = list(initial_states)
    if not states:
        states = [jnp.zeros((inputs.shape[1], 1), dtype=inputs.dtype)]  # expect: RTL105
    outputs = []
    for x_t in inputs:
        output, new_states = step_function(x_t, states)
        outputs.append(output)
        states = new_states
    return outputs[-1], jnp.stack(outputs), states
