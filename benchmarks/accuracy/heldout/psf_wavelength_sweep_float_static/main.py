"""Broadband PSF of a space telescope: sum monochromatic PSFs over a filter bandpass."""

import numpy as np

from optics import Telescope, encircled_energy


def filter_bandpass(center_nm, width_nm, n_samples):
    wavelengths = np.linspace(center_nm - width_nm / 2, center_nm + width_nm / 2, n_samples)
    throughput = np.exp(-0.5 * ((wavelengths - center_nm) / (width_nm / 3)) ** 2)
    return wavelengths * 1e-9, throughput / throughput.sum()


def broadband_psf(scope, pupil, bandpass):
    wavelengths, weights = bandpass
    total = 0.0
    for wl, w in zip(wavelengths, weights):
        total = total + float(w) * scope.mono_psf(pupil, float(wl))  # expect: RTL202
    return total


def main():
    scope = Telescope()
    bandpass = filter_bandpass(center_nm=600.0, width_nm=120.0, n_samples=5)
    for label, pupil in [("nominal", scope.flat_pupil()),
                         ("defocus", scope.defocused_pupil(0.05))]:
        psf = broadband_psf(scope, pupil, bandpass)
        ee = encircled_energy(psf, 4.0)
        print(f"{label}: peak={float(psf.max()):.4f} EE(r<4px)={float(ee):.3f}")


if __name__ == "__main__":
    main()
