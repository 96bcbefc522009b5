"""Normalise per-contig read depth against the autosomes and call sex-chromosome dosage."""

import jax
import jax.numpy as jnp

from loader import AUTOSOMES, Sample, contig_bins, contig_names


@jax.jit
def dosage_ratios(bins):
    autosomal = jnp.concatenate([bins[i] for i in range(len(AUTOSOMES))])
    reference = jnp.median(autosomal)
    return [2.0 * jnp.median(b) / reference for b in bins]


def call_dosage(sample: Sample) -> dict:
    ratios = dosage_ratios(contig_bins(sample))
    return {name: round(float(r), 2) for name, r in zip(contig_names(sample), ratios)}


def main():
    cohort = [
        Sample("NA001", "XY", 1),
        Sample("NA002", "XX", 2),
        Sample("NA003", "XY", 3),
        Sample("NA004", "XX", 4),
        Sample("NA005", "XY", 5),
    ]
    for sample in cohort:
        print(sample.name, sample.karyotype, call_dosage(sample))


if __name__ == "__main__":
    main()
