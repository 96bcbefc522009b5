"""3-DoF lander with aerodynamic drag; state = (r[3], v[3], m), control = thrust[3]."""
import jax
import jax.numpy as jnp

G = jnp.array([0.0, 0.0, -3.71])  # Mars gravity, m/s^2
C_DRAG = 0.05
ALPHA = 1.0 / (225.0 * 9.807)  # fuel use per unit thrust


def lander_rhs(x, u):
    v, m = x[3:6], x[6]
    speed = jnp.linalg.norm(v) + 1e-9
    acc = u / m + G - C_DRAG * speed * v / m
    mdot = -ALPHA * jnp.linalg.norm(u)
    return jnp.concatenate([v, acc, mdot[None]])


@jax.jit
def propagate_segment(x0, u0, u1, t_sub):
    """RK4 over the sub-step times of one segment, first-order-hold control."""
    T = t_sub[-1]

    def body(x, ts):
        t, h = ts
        ua = u0 + (u1 - u0) * (t / T)
        uh = u0 + (u1 - u0) * ((t + 0.5 * h) / T)
        ub = u0 + (u1 - u0) * ((t + h) / T)
        k1 = lander_rhs(x, ua)
        k2 = lander_rhs(x + 0.5 * h * k1, uh)
        k3 = lander_rhs(x + 0.5 * h * k2, uh)
        k4 = lander_rhs(x + h * k3, ub)
        return x + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4), None

    x1, _ = jax.lax.scan(body, x0, (t_sub[:-1], jnp.diff(t_sub)))
    return x1
