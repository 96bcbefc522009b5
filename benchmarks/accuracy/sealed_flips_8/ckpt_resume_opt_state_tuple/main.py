"""Train, checkpoint, then resume from the checkpoint as a restarted job would."""

import tempfile

import jax

import checkpoint
from train import init_opt_state, init_params, train_step


def walkers(key, step, n=64):
    return jax.random.normal(jax.random.fold_in(key, step), (n, 3))


def run(ckpt_dir, key, first_step, last_step, params, opt_state):
    for step in range(first_step, last_step):
        params, opt_state, e = train_step(params, opt_state, walkers(key, step))
    checkpoint.save(ckpt_dir, last_step, params, opt_state)
    return float(e)


def main():
    key = jax.random.PRNGKey(0)
    with tempfile.TemporaryDirectory() as ckpt_dir:
        params = init_params(key)
        e_first = run(ckpt_dir, key, 0, 4, params, init_opt_state(params))
        # The job is restarted: everything comes back from the latest checkpoint.
        step, params, opt_state = checkpoint.restore(checkpoint.latest(ckpt_dir))
        e_resumed = run(ckpt_dir, key, step, step + 4, params, opt_state)
    print(f"energy {e_first:.4f} before the restart, {e_resumed:.4f} after")


if __name__ == "__main__":
    main()
