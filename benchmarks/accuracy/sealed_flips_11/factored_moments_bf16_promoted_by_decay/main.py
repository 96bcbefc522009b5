"""Fine-tune a bfloat16 two-matrix model with the factored optimizer inside one jitted step."""

import jax
import jax.numpy as jnp

import factored


def loss_fn(params, x, y):
    h = jax.nn.relu(x.astype(jnp.bfloat16) @ params["w1"])
    return jnp.mean(((h @ params["w2"]).astype(jnp.float32) - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = factored.update(grads, opt_state)
    params = jax.tree.map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {
        "w1": (0.3 * jax.random.normal(k1, (8, 16))).astype(jnp.bfloat16),
        "w2": (0.3 * jax.random.normal(k2, (16, 4))).astype(jnp.bfloat16),
    }
    x = jax.random.normal(k3, (32, 8))
    y = jnp.tanh(x[:, :4])
    opt_state = factored.init(params)
    for step in range(5):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        print(f"step {step}: loss {float(loss):.4f} v_row dtype {opt_state.v_row['w1'].dtype}")


if __name__ == "__main__":
    main()
