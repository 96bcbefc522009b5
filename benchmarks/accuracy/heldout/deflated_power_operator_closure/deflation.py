"""Hotelling deflation: remove the eigenpairs already found from a Hessian-vector product."""


def deflate(matvec, found):
    def deflated(v):
        out = matvec(v)
        for lam, u in found:
            out = out - lam * u * (u @ v)
        return out

    return deflated
