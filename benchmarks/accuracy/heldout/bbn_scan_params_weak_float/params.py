"""Default cosmological and nuclear parameters, as a user would write them in a config."""

DEFAULT_PARAMS = {
    "omega_b": 0.0224,
    "omega_cdm": 0.120,
    "h": 0.674,
    "tau_n_fac": 1.0,  # expect: RTL401
    "delta_neff": 0.0,
}


def with_overrides(params, **overrides):
    out = dict(params)
    out.update(overrides)
    return out
