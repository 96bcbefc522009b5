"""Mean-field variational inference for the eight-schools model with a tiny SVI loop."""
import jax
import jax.numpy as jnp
import numpy as np

# Treatment effects and standard errors of the SAT coaching study.
EFFECTS = np.array([28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0], dtype=np.float32)
STD_ERRS = np.array([15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0], dtype=np.float32)


def normal_logpdf(x, loc, scale):
    return -0.5 * ((x - loc) / scale) ** 2 - jnp.log(scale) - 0.5 * jnp.log(2 * jnp.pi)


def model_log_joint(latent, data):
    """log p(mu, log_tau, theta, y) with a non-centred parameterisation."""
    mu, log_tau, eta = latent["mu"], latent["log_tau"], latent["eta"]
    theta = mu + jnp.exp(log_tau) * eta
    lp = normal_logpdf(mu, 0.0, 5.0) + normal_logpdf(log_tau, 0.0, 1.0)
    lp = lp + normal_logpdf(eta, 0.0, 1.0).sum()
    return lp + normal_logpdf(data["y"], theta, data["sigma"]).sum()


def unpack(z):
    """Split a flat latent vector [mu, log_tau, eta_1..eta_J] into named sites."""
    return {"mu": z[..., 0], "log_tau": z[..., 1], "eta": z[..., 2:]}


def init_guide(num_schools):
    dim = 2 + num_schools
    return {"loc": jnp.zeros(dim), "log_scale": jnp.full(dim, -1.0, dtype=jnp.float32)}


def elbo(guide_params, eps, data):
    """Reparameterised Monte Carlo ELBO; one row of `eps` per particle."""
    loc, log_scale = guide_params["loc"], guide_params["log_scale"]
    z = loc + jnp.exp(log_scale) * eps
    log_joint = jax.vmap(lambda zi: model_log_joint(unpack(zi), data))(z)
    return jnp.mean(log_joint) + jnp.sum(log_scale)


@jax.jit
def adam_update(params, grads, state, lr):
    m, v, t = state
    t = t + 1
    m = jax.tree_util.tree_map(lambda a, g: 0.9 * a + 0.1 * g, m, grads)
    v = jax.tree_util.tree_map(lambda a, g: 0.999 * a + 0.001 * g * g, v, grads)
    mhat = jax.tree_util.tree_map(lambda a: a / (1 - 0.9**t), m)
    vhat = jax.tree_util.tree_map(lambda a: a / (1 - 0.999**t), v)
    params = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * a / (jnp.sqrt(b) + 1e-8), params, mhat, vhat
    )
    return params, (m, v, t)


class SVI:
    def __init__(self, data, lr=0.05, num_particles=4, seed=0):
        self.data = data
        self.lr = lr
        self.num_particles = num_particles
        self.rng = np.random.default_rng(seed)

    def init(self, num_schools):
        params = init_guide(num_schools)
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return params, (zeros, zeros, jnp.zeros((), jnp.int32))

    def step(self, params, opt_state):
        eps = self.rng.standard_normal((self.num_particles,) + params["loc"].shape)
        eps = eps.astype(np.float32)

        def loss_fn(p):
            return -elbo(p, eps, self.data)

        loss_and_grad = jax.jit(jax.value_and_grad(loss_fn))  # expect: RTL301
        loss, grads = loss_and_grad(params)
        params, opt_state = adam_update(params, grads, opt_state, self.lr)
        return loss, params, opt_state


def fit(num_steps=5, seed=0):
    data = {"y": jnp.asarray(EFFECTS), "sigma": jnp.asarray(STD_ERRS)}
    svi = SVI(data, seed=seed)
    params, opt_state = svi.init(EFFECTS.shape[0])
    for step in range(num_steps):
        loss, params, opt_state = svi.step(params, opt_state)
        print(f"step {step}: -ELBO = {float(loss):.2f}")
    return params


if __name__ == "__main__":
    post = fit()
    print("posterior mean of mu:", float(unpack(post["loc"])["mu"]))
