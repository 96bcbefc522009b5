"""One-compartment IV-bolus model: plasma concentration over the first two
days of therapy for each patient, and the time spent above the MIC."""
import jax
import jax.numpy as jnp

from regimen import PRESCRIPTIONS, regimen_from_record

HOURS = 48
MIC_MG_L = 8.0


@jax.jit
def concentration_curve(regimen, t):
    ke = regimen.clearance_l_h / regimen.volume_l
    n_doses = jnp.floor(t / regimen.interval_h) + 1.0
    since_last = jnp.mod(t, regimen.interval_h)
    # superposition of all boluses given so far (geometric series)
    decay = jnp.exp(-ke * regimen.interval_h)
    accum = (1.0 - decay ** n_doses) / (1.0 - decay)
    return regimen.dose_mg / regimen.volume_l * jnp.exp(-ke * since_last) * accum


def time_above_mic(curve, dt):
    return float(jnp.sum(curve > MIC_MG_L) * dt)


def main():
    t = jnp.linspace(0.0, HOURS, 193)
    dt = float(t[1] - t[0])
    for rec in PRESCRIPTIONS:
        regimen = regimen_from_record(rec)
        curve = concentration_curve(regimen, t)
        print(f"{rec['patient']}: Cmax={float(curve.max()):6.2f} mg/L  "
              f"T>MIC={time_above_mic(curve, dt):5.1f} h of {HOURS}")


if __name__ == "__main__":
    main()
