"""Check that the BBN prediction has converged in the starting temperature.

Starting the integration too late misses part of the weak freeze-out, too
early costs steps; the usual check is to lower T_start until Y_p stops moving.
"""
from network import AbundanceModel

FIDUCIAL_RATES = [5.0, 0.08, 20.0, 0.06]


def start_temperature_scan(model, temperatures, eta_fac=1.0):
    rows = []
    for T in temperatures:
        model.T_start = T  # expect: RTL202
        yp, dh = model.predict(eta_fac)
        rows.append((T, float(yp), float(dh)))
    return rows


def report(rows):
    ref = rows[0][1]
    for T, yp, dh in rows:
        print(f"T_start={T:6.2f} MeV  Y_p={yp:.5f}  D/H={dh:.3e}  dY_p={yp - ref:+.2e}")


if __name__ == "__main__":
    model = AbundanceModel(FIDUCIAL_RATES)
    rows = start_temperature_scan(model, [10.0, 5.0, 3.0, 2.0])
    report(rows)
    # back to the fiducial start for the eta sweep
    model.T_start = 10.0
    for eta in (0.9, 1.0, 1.1):
        yp, dh = model.predict(eta)
        print(f"eta_fac={eta:.1f}  Y_p={float(yp):.5f}  D/H={float(dh):.3e}")
