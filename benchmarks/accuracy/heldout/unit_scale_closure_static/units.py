"""Unit conversion factors and the scaling functions built from them."""

FACTORS = {"m": 1.0, "km": 1000.0, "pc": 3.0857e16, "kpc": 3.0857e19}


def scale_to_si(unit):
    factor = FACTORS[unit]

    def to_si(values):
        return values * factor

    return to_si
