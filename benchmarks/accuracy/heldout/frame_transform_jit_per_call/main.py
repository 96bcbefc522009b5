"""Cross-match survey fields in Galactic coordinates and flag low-latitude sources."""
import jax
import jax.numpy as jnp
import numpy as np

from frames import GalacticFrame

FIELD_SIZE = 256


@jax.jit
def extinction_weight(b, scale_height_deg):
    return 1.0 - jnp.exp(-jnp.abs(jnp.degrees(b)) / scale_height_deg)


def load_field(rng, center_ra, center_dec):
    ra = np.deg2rad(center_ra + rng.uniform(-2.0, 2.0, FIELD_SIZE)).astype(np.float32)
    dec = np.deg2rad(center_dec + rng.uniform(-2.0, 2.0, FIELD_SIZE)).astype(np.float32)
    return jnp.asarray(ra), jnp.asarray(dec)


class FieldReducer:
    def __init__(self, frame, scale_height_deg=10.0):
        self.frame = frame
        self.scale_height = jnp.float32(scale_height_deg)

    def reduce(self, ra, dec):
        l, b = self.frame.from_icrs(ra, dec)
        weight = extinction_weight(b, self.scale_height)
        return {"l": l, "b": b, "low_latitude": float((weight < 0.5).mean())}


def main():
    rng = np.random.default_rng(11)
    reducer = FieldReducer(GalacticFrame())
    pointings = [(266.4, -28.9), (83.8, -5.4), (187.7, 12.4), (10.7, 41.3)]
    for ra0, dec0 in pointings:
        ra, dec = load_field(rng, ra0, dec0)
        out = reducer.reduce(ra, dec)
        l_med = float(jnp.degrees(jnp.median(out["l"])))
        print(f"field ({ra0:6.1f}, {dec0:5.1f}): median l={l_med:6.1f}, low-latitude fraction {out['low_latitude']:.2f}")


if __name__ == "__main__":
    main()
