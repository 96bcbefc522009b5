"""Miniature re-trace counts behind the sample-3 verdicts (HELDOUT_USER3.md). CPU is enough.

Each block copies the shape of one pattern from the sample (names follow the source) and counts how
often the jitted/pmapped body is traced. One CPU device stands in for the TPU/GPU hosts; pmap over a
leading axis of 1 keeps the shapes the scripts use.
Run: python benchmarks/precision/heldout_user3_repros.py
"""

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np

out = {}
n_dev = jax.local_device_count()

# F1/F2 jax-flow: a pmap of a lambda built inside the FID loop (eval_fid.py:203, train_flow.py:513)
g = [0]


def gather(x):
    g[0] += 1
    return jax.lax.all_gather(x, "i", axis=0)


acts = jnp.ones((n_dev, 2, 4))
for _fid_it in range(5):
    jax.pmap(lambda x: gather(x), axis_name="i")(acts)[0]
out["F1/F2 jax-flow pmap(lambda) per FID iteration, 5 iterations: traces"] = g[0]


# R1 jax-flow: call_model_pmap marks cfg_val static (static_broadcasted_argnums=(4, 5)) and eval_model
# sweeps cfg_scale over [0, 0.1, 1, 4, 10]; the next loop passes FLAGS.model.cfg_scale (4.0)
@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class FlowTrainer:  # stand-in for the flax PyTreeNode: one leaf, pmapped as `self`
    w: jax.Array

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, ch):
        return cls(*ch)

    @functools.partial(
        jax.pmap, axis_name="data", in_axes=(0, 0, 0, 0), static_broadcasted_argnums=(4, 5)
    )
    def call_model_pmap(self, images, t, labels, cfg=True, cfg_val=1.0):
        c[0] += 1
        v = images * self.w + t[..., None]
        return v * cfg_val if cfg else v


c = [0]
model = FlowTrainer(jnp.ones((n_dev, 3)))
x = jnp.zeros((n_dev, 2, 3))
t_vector = jnp.zeros((n_dev, 2))
labels = jnp.zeros((n_dev, 2), jnp.int32)
for _eval in range(2):  # eval_model runs every eval_interval; two evaluations
    model.call_model_pmap(x, t_vector, labels, False, 0.0)
    for cfg_scale in [0, 0.1, 1, 4, 10]:
        for _ti in range(3):
            model.call_model_pmap(x, t_vector, labels, True, cfg_scale)
    for _denoise_timesteps in [1, 4, 32]:
        model.call_model_pmap(x, t_vector, labels, True, 4.0)
out["R1 jax-flow static cfg_val sweep, 2 evaluations: traces of call_model_pmap"] = c[0]

# R2 nerfies render_image: rays split in chunks of `chunk`, the last chunk padded only to a multiple of
# the device count, so it has its own shape
r = [0]


def _model_fn(key_0, key_1, params, rays_dict, alpha):
    r[0] += 1
    return jax.lax.all_gather(rays_dict["origins"] * params, axis_name="batch")


pmodel_fn = jax.pmap(_model_fn, in_axes=(0, 0, 0, 0, None), axis_name="batch")
h, w, chunk = 10, 10, 32  # 100 rays: chunks of 32, 32, 32 and 4
rays = {"origins": np.ones((h * w, 3), np.float32)}
keys = jnp.zeros((n_dev, 2), jnp.uint32)
params = jnp.ones((n_dev, 1))
for _image in range(3):  # process_iterator renders every eval image with the same h, w
    for i in range(0, h * w, chunk):
        chunk_rays = {"origins": rays["origins"][i : i + chunk]}
        num_chunk_rays = chunk_rays["origins"].shape[0]
        remainder = num_chunk_rays % n_dev
        if remainder != 0:
            padding = n_dev - remainder
            chunk_rays = {
                "origins": np.pad(chunk_rays["origins"], ((0, padding), (0, 0)), mode="edge")
            }
        sharded = {"origins": chunk_rays["origins"].reshape((n_dev, -1, 3))}
        pmodel_fn(keys, keys, params, sharded, 0.0)
out["R2 nerfies render_image, 3 images of 100 rays, chunk 32: traces"] = r[0]

for k_, v in out.items():
    print(f"{k_}: {v}")
