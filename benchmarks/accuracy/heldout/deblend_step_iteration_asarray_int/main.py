"""Deblend two overlapping galaxies, checkpoint the fit, and resume it from the checkpoint."""

import jax.numpy as jnp
import numpy as np

from scene import SourceGuess, init_params, make_step, render


class Scene:
    def __init__(self, params, obs, noise_rms, iteration=0):
        self.params = params
        self.obs = jnp.asarray(obs, dtype=jnp.float32)
        self.weights = jnp.full(obs.shape, 1.0 / noise_rms**2, dtype=jnp.float32)
        self.iteration = iteration

    @classmethod
    def from_catalogue(cls, guesses, obs, noise_rms):
        return cls(init_params(guesses), obs, noise_rms)

    @classmethod
    def from_checkpoint(cls, ckpt, obs, noise_rms):
        scene = cls(ckpt["params"], obs, noise_rms, iteration=int(ckpt["iteration"]))
        # take the first step straight from the stored counter, then continue as usual
        scene.params, _ = make_step(scene.params, scene.obs, scene.weights, ckpt["iteration"])
        scene.iteration += 1
        return scene

    def fit(self, max_iter):
        loss = None
        for it in range(self.iteration, self.iteration + max_iter):
            self.params, loss = make_step(self.params, self.obs, self.weights, it)
        self.iteration += max_iter
        return float(loss)

    def checkpoint(self):
        return {"params": dict(self.params), "iteration": jnp.asarray(self.iteration)}


def simulate_blend(shape=(24, 24), noise_rms=0.01, seed=3):
    truth = {
        "center": jnp.array([[10.0, 9.0], [13.5, 15.0]], dtype=jnp.float32),
        "flux": jnp.array([4.0, 2.5], dtype=jnp.float32),
        "log_r": jnp.log(jnp.array([2.0, 1.5], dtype=jnp.float32)),
    }
    rng = np.random.default_rng(seed)
    image = np.asarray(render(truth, shape)) + rng.normal(0.0, noise_rms, shape)
    return image.astype(np.float32), noise_rms


if __name__ == "__main__":
    obs, noise = simulate_blend()
    catalogue = [SourceGuess((10.5, 8.5), 3.0, 2.5), SourceGuess((13.0, 15.5), 2.0, 2.0)]
    scene = Scene.from_catalogue(catalogue, obs, noise)
    loss = scene.fit(4)
    print(f"after {scene.iteration} steps: loss {loss:.2f}")
    ckpt = scene.checkpoint()

    resumed = Scene.from_checkpoint(ckpt, obs, noise)
    loss = resumed.fit(3)
    print(f"resumed at {int(ckpt['iteration'])}, now {resumed.iteration}: loss {loss:.2f}")
    print("fluxes", np.round(np.asarray(resumed.params["flux"]), 2))
