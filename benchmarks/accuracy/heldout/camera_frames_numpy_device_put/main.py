"""Edge-energy monitor for a camera feed with mixed frame sources.

Frames reach the jitted Sobel filter along three paths: straight from the
decoder as NumPy arrays normalised in float64, from the on-device augmenter as
float32 jax arrays, and from a prefetcher that device_puts decoded frames onto
the accelerator (with the sharding of the reference frame) ahead of time.
"""

import jax
import jax.numpy as jnp
import numpy as np

H, W = 32, 48
SOBEL_X = jnp.array([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]], jnp.float32)


@jax.jit
def sobel_energy(frame, kernel):
    img = frame[None, None]
    kx = kernel[None, None]
    ky = kernel.T[None, None]
    gx = jax.lax.conv_general_dilated(img, kx, (1, 1), "SAME")
    gy = jax.lax.conv_general_dilated(img, ky, (1, 1), "SAME")
    return jnp.mean(jnp.sqrt(gx**2 + gy**2 + 1e-12))


class Decoder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def next_raw(self, t):
        base = np.add.outer(np.arange(H), np.arange(W)) * (1 + t % 3)
        noise = self.rng.integers(0, 20, size=(H, W))
        return ((base + noise) % 256).astype(np.uint8)

    def decode(self, t):
        return np.asarray(self.next_raw(t), dtype=np.float64) / 255.0


def augment(frame):
    return jnp.flip(jnp.asarray(frame, jnp.float32), axis=1)


class Prefetcher:
    def __init__(self, decoder, reference):
        self.decoder = decoder
        self.sharding = reference.sharding

    def fetch(self, t):
        return jax.device_put(self.decoder.decode(t), self.sharding)


def frame_stream(decoder, prefetcher, n):
    for t in range(n):
        if t % 3 == 0:
            yield "decoder", decoder.decode(t)
        elif t % 3 == 1:
            yield "augment", augment(decoder.decode(t))
        else:
            yield "prefetch", prefetcher.fetch(t)


def main():
    decoder = Decoder(seed=11)
    reference = jnp.zeros((H, W), jnp.float32)
    prefetcher = Prefetcher(decoder, reference)
    for source, frame in frame_stream(decoder, prefetcher, n=6):
        energy = sobel_energy(frame, SOBEL_X)
        print(f"{source:8s} frame {type(frame).__name__:9s} edge energy {float(energy):.4f}")


if __name__ == "__main__":
    main()
