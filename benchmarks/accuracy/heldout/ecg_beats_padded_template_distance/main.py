"""Flag ectopic-looking beats by their distance to a patient's median beat template."""
import jax
import jax.numpy as jnp
import numpy as np

from beats import MAX_BEAT, segment, synth_record


def _masked_znorm(x, mask):
    n = jnp.maximum(mask.sum(), 1)
    mean = jnp.where(mask, x, 0.0).sum() / n
    std = jnp.sqrt(jnp.where(mask, (x - mean) ** 2, 0.0).sum() / n) + 1e-6
    return jnp.where(mask, (x - mean) / std, 0.0)


@jax.jit
def beat_distance(beat, mask, template, template_mask):
    """Mean squared distance over the samples both beats cover, after z-normalising."""
    both = mask & template_mask
    diff = _masked_znorm(beat, mask) - _masked_znorm(template, template_mask)
    return jnp.where(both, diff**2, 0.0).sum() / jnp.maximum(both.sum(), 1)


@jax.jit
def score_record(beats, masks, valid, template, template_mask):
    dist = jax.vmap(beat_distance, in_axes=(0, 0, None, None))(beats, masks, template, template_mask)
    dist = jnp.where(valid, dist, jnp.nan)
    median = jnp.nanmedian(dist)
    return dist, jnp.where(valid, dist > 3.0 * median, False)


def build_template(beats, masks, valid):
    """Sample-wise median of the valid beats; covers as far as most beats reach."""
    stack = np.where(masks[valid], beats[valid], np.nan)
    covered = masks[valid].any(axis=0)
    template = np.zeros(MAX_BEAT, dtype=np.float32)
    template[covered] = np.nanmedian(stack[:, covered], axis=0)
    template_mask = masks[valid].mean(axis=0) >= 0.5
    return template, template_mask


def analyse(records):
    for patient, (signal, peaks) in records.items():
        beats, masks, valid = segment(signal, peaks)
        template, template_mask = build_template(beats, masks, valid)
        first = beat_distance(beats[0], masks[0], template, template_mask)
        dist, flagged = score_record(beats, masks, valid, template, template_mask)
        lengths = masks[valid].sum(axis=1)
        print(f"{patient}: {int(valid.sum())} beats, lengths {lengths.min()}-{lengths.max()}"
              f" (buffer {MAX_BEAT}), first d={float(first):.3f}, flagged {int(flagged.sum())}")


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    records = {name: synth_record(rng, hr) for name, hr in
               [("p01", 62.0), ("p02", 75.0), ("p03", 88.0), ("p04", 54.0)]}
    analyse(records)
