"""Options of the toy Kohn-Sham driver, parsed the way the command line would give them."""

from collections import namedtuple
from types import SimpleNamespace

CLI_DEFAULTS = {
    "its": 6,  # fixed number of SCF iterations (unrolled under jit)
    "basis": "6-31g",
    "xc": "lda",
    "mixing": 0.5,
    "hubbard_u": 1.0,
}

# jax.jit hashes its static arguments, and an argparse Namespace is not hashable:
# freeze the parsed options into a namedtuple with the same fields.
DFTOptions = namedtuple("DFTOptions", list(CLI_DEFAULTS))


def parse_options(**overrides):
    opts = SimpleNamespace(**CLI_DEFAULTS)  # what argparse.parse_args() hands back
    for name, value in overrides.items():
        setattr(opts, name, value)
    opts.basis = "sto-3g"  # the split-valence basis does not fit on one device
    return DFTOptions(**vars(opts))
