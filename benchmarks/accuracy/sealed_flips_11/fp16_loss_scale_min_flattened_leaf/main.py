"""Train a float16 regression head with dynamic loss scaling, adjusting the scale inside the jitted step."""

import jax
import jax.numpy as jnp

from loss_scale import DynamicLossScale, all_finite


def loss_fn(params, x, y):
    pred = x.astype(jnp.float16) @ params["w"].astype(jnp.float16) + params["b"].astype(jnp.float16)
    return jnp.mean((pred.astype(jnp.float32) - y) ** 2)


@jax.jit
def train_step(params, scaler, x, y):
    def scaled_loss(p):
        loss = loss_fn(p, x, y)
        return scaler.scale(loss.astype(jnp.float16)), loss

    grads, loss = jax.grad(scaled_loss, has_aux=True)(params)
    grads = scaler.unscale(grads)
    finite = all_finite(grads)
    new_params = jax.tree.map(lambda p, g: jnp.where(finite, p - 0.05 * g.astype(p.dtype), p), params, grads)
    return new_params, scaler.adjust(finite), loss


def main():
    kx, kw = jax.random.split(jax.random.PRNGKey(0))
    x = jax.random.normal(kx, (64, 8))
    y = x @ jax.random.normal(kw, (8, 1))
    params = {"w": jnp.zeros((8, 1), jnp.float32), "b": jnp.zeros((1,), jnp.float32)}
    scaler = DynamicLossScale(
        loss_scale=jnp.asarray(2.0**10, jnp.float16),
        min_loss_scale=jnp.asarray(1.0, jnp.float16),
    )
    for step in range(6):
        params, scaler, loss = train_step(params, scaler, x, y)
        print(f"step {step}: loss {float(loss):.4f} scale {float(scaler.loss_scale):.0f} ({scaler.loss_scale.dtype})")


if __name__ == "__main__":
    main()
