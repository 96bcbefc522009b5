"""Read-depth loading for a small copy-number panel.

Each sample's coverage is a list with one array of binned read depth per contig. Autosomes and
chrX are always present; chrY bins are only produced for samples that carry a Y chromosome.
"""

from dataclasses import dataclass

import numpy as np

N_BINS = 16
AUTOSOMES = ("chr1", "chr2")


@dataclass(frozen=True)
class Sample:
    name: str
    karyotype: str  # "XX" or "XY"
    seed: int

    @property
    def has_y(self) -> bool:
        return "Y" in self.karyotype


def _simulate_depth(rng, mean_depth: float) -> np.ndarray:
    return rng.poisson(mean_depth, size=N_BINS).astype(np.float32)


def contig_bins(sample: Sample) -> list:
    rng = np.random.default_rng(sample.seed)
    bins = [_simulate_depth(rng, 30.0) for _ in AUTOSOMES]
    x_dosage = 1.0 if sample.has_y else 2.0
    bins.append(_simulate_depth(rng, 15.0 * x_dosage))
    if sample.has_y:
        bins.append(_simulate_depth(rng, 15.0))  # expect: RTL403
    return bins


def contig_names(sample: Sample) -> list:
    names = list(AUTOSOMES) + ["chrX"]
    return names + ["chrY"] if sample.has_y else names
