"""Major/minor cycle driver for a gradient (Landweber) deconvolution."""

import jax.numpy as jnp

from beams import beam_from_config


def run_major_cycles(step_fn, dirty, cfg, n_major=4, n_minor=3):
    """step_fn(response, image, dirty, gain) -> image; any jitted update will do."""
    image = jnp.zeros_like(dirty)
    history = []
    for cycle in range(n_major):
        # re-read the instrument model at the start of each major cycle
        response = beam_from_config(cfg)
        for _ in range(n_minor):
            image = step_fn(response, image, dirty, cfg["gain"])  # expect: RTL204
        residual = dirty - response(image)
        history.append(float(jnp.sqrt(jnp.mean(residual**2))))
        print(f"major cycle {cycle}: rms residual {history[-1]:.4f}")
    return image, history
