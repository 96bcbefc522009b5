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

# R3 nerfies train.py:254-261: learning_rate_sched(step) is a Python float (weak) while step < num_steps
# and jnp.full_like(step, final_value, dtype=float32) (a strong float32 array) from num_steps on;
# scalar_params is broadcast to ptrain_step (in_axes None)
s3 = [0]


def train_step(rng_key, state, batch, scalar_params):
    s3[0] += 1
    return state - scalar_params["learning_rate"] * batch


def exponential_get(step, initial_value=1e-3, final_value=1e-4, num_steps=4):
    if step >= num_steps:
        return jnp.full_like(step, final_value, dtype=jnp.float32)
    return initial_value * (final_value / initial_value) ** (step / (num_steps - 1))


ptrain_step = jax.pmap(train_step, axis_name="batch", in_axes=(0, 0, 0, None))
# state starts as a pmap output on the same axis name, as the loop's later states are: under jax 0.10 an
# input placed on another mesh (plain jnp.ones, or a pmap over another axis name) is a cache miss of its own
state = jax.pmap(lambda a: a, axis_name="batch")(jnp.ones((n_dev, 3)))
for step in range(1, 5 + 1):  # max_steps = 5 > num_steps = 4, so the last two steps saturate
    scalar_params = {"learning_rate": exponential_get(step)}
    state = ptrain_step(keys, state, jnp.ones((n_dev, 3)), scalar_params)
out["R3 nerfies learning rate float -> float32 array at num_steps, 5 steps: traces"] = s3[0]

# F3/F4 diffusion_distillation mydpm.py:188/:195: sample_loop builds jax.pmap(self.ddim_step) on every
# call (once per batch, sampling.py:83) and passes the step index i as a static argument
d = [0]


class DDIMSampler:  # stand-in for mydpm.Model: the sampler is made once, before the batch loop
    def ddim_step(self, i, z_t, y, num_steps, logsnr_schedule_fn, clip_x):
        d[0] += 1
        i = jnp.array(i, dtype=z_t.dtype)
        return z_t * logsnr_schedule_fn(i / num_steps), z_t

    def sample_loop(self, init_x, y, num_steps, logsnr_schedule_fn, clip_x):
        ddim_step_fn = jax.pmap(
            self.ddim_step, axis_name="p", static_broadcasted_argnums=[0, 3, 4, 5]
        )
        zt = init_x
        for i in reversed(range(num_steps)):
            _xhat, zt = ddim_step_fn(i, zt, y, num_steps, logsnr_schedule_fn, clip_x)
        return zt


sampler = DDIMSampler()
logsnr_schedule_fn = lambda t: t + 1.0  # noqa: E731 (made once, like get_logsnr_schedule's result)
per_batch = []
for _batch_id in range(3):
    sampler.sample_loop(jnp.ones((n_dev, 2, 3)), None, 4, logsnr_schedule_fn, True)
    per_batch.append(d[0])
out["F3/F4 diffusion_distillation 3 batches x 4 steps: cumulative traces after each batch"] = (
    per_batch
)

# R4 annotated-s4 s4/sample.py:30-58: a new `loop` closure per image, jitted and handed to an eager
# lax.fori_loop, so every image traces (and compiles) the model-in-a-loop again
s4 = [0]
params_s4 = jnp.ones(3)
for _j in range(4):
    image = jnp.zeros((1, 10, 1))

    def loop(i, cur):
        s4[0] += 1
        cur, rng = cur
        _r, rng = jax.random.split(rng)
        return cur.at[0, i + 1, 0].set(jnp.sum(params_s4) * i), rng

    jax.lax.fori_loop(3, 9, jax.jit(loop), (image, jax.random.PRNGKey(0)))
out["R4 annotated-s4 fori_loop(jax.jit(loop)) per image, 4 images: traces"] = s4[0]


# R5 annotated-s4 s4/train.py:121-130: torch DataLoader(batch_size=bsz) keeps the short last batch
# (60000 % 128 = 96 for MNIST); the Module made per epoch is an equal, equally hashed static value
@dataclasses.dataclass(frozen=True)
class SeqModel:  # stand-in for the flax Module (dataclass equality and hash, as flax gives)
    d_model: int
    training: bool


t5 = [0]


@functools.partial(jax.jit, static_argnums=(2,))
def train_step_s4(w, batch_inputs, model):
    t5[0] += 1
    return w - jnp.mean(batch_inputs) * model.d_model


w = jnp.ones(3)
for _epoch in range(3):
    model_s4 = SeqModel(d_model=4, training=True)  # model = model(training=True) in train_epoch
    for bs in (128, 128, 96):
        w = train_step_s4(w, jnp.ones((bs, 5, 1)), model_s4)
out["R5 annotated-s4 3 epochs, last batch 96 of 128: traces of train_step"] = t5[0]

for k_, v in out.items():
    print(f"{k_}: {v}")
