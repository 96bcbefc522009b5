"""Simulate positives clinic batch by clinic batch and compare with the observed rate."""

import jax
from survey import SeroSurvey, clinic_batches

if __name__ == "__main__":
    survey = SeroSurvey(prevalence=0.12)
    key = jax.random.PRNGKey(0)
    for i, batch in enumerate(clinic_batches(n_batches=4, clinics_per_batch=6)):
        key, sub = jax.random.split(key)
        positives = survey.simulate(sub, batch)
        print(i, batch["tested"].tolist(), positives.tolist())
