"""Triangular ocean-basin mesh and neighbour tables that can be passed to jax.jit."""
import numpy as np
import jax

SKIP = -1


class _BufferHandle:
    """Points at a concrete (host) neighbour table; equal only for the same buffer."""
    def __init__(self, buf):
        self.buf = buf

    def __eq__(self, other):
        return isinstance(other, _BufferHandle) and other.buf is self.buf

    def __hash__(self):
        return id(self.buf)


@jax.tree_util.register_pytree_node_class
class Connectivity:
    """Neighbour table: the table is traced, the rest is static metadata."""
    def __init__(self, table, n_target, skip=SKIP, handle=None):
        self.table = table
        self.n_target = n_target
        self.skip = skip
        self.handle = handle if handle is not None else _BufferHandle(table)

    def tree_flatten(self):
        return (self.table,), (self.n_target, self.skip, self.handle)

    @classmethod
    def tree_unflatten(cls, aux, children):
        n_target, skip, handle = aux
        return cls(children[0], n_target, skip, handle)

    def has_skip_values(self):
        # reads the host table, so it also works while tracing
        return bool(np.any(self.handle.buf == self.skip))


class TriangleMesh:
    def __init__(self, nx, ny, width=1.0, height=1.0):
        xs, ys = np.meshgrid(np.linspace(0, width, nx + 1), np.linspace(0, height, ny + 1))
        self.vertices = np.stack([xs.ravel(), ys.ravel()], axis=1)
        vid = lambda i, j: j * (nx + 1) + i
        quads = [(vid(i, j), vid(i + 1, j), vid(i, j + 1), vid(i + 1, j + 1))
                 for j in range(ny) for i in range(nx)]
        self.cells = np.array([tri for a, b, c, d in quads for tri in ((a, b, d), (a, d, c))])
        edge_cells = {}
        for ci, tri in enumerate(self.cells):
            for k in range(3):
                key = tuple(sorted((tri[k], tri[(k + 1) % 3])))
                edge_cells.setdefault(key, []).append(ci)
        self.edges = np.array(list(edge_cells))
        e2c = np.full((len(self.edges), 2), SKIP, dtype=np.int32)
        for ei, owners in enumerate(edge_cells.values()):
            e2c[ei, : len(owners)] = owners
        self._tables = {"E2C": (e2c, len(self.cells))}
        self.centroids = self.vertices[self.cells].mean(axis=1)
        self.cell_area = np.full(len(self.cells), width * height / (2 * nx * ny))
        length = np.linalg.norm(np.diff(self.vertices[self.edges], axis=1)[:, 0], axis=1)
        c0 = self.centroids[e2c[:, 0]]
        c1 = np.where(e2c[:, 1:] == SKIP, c0, self.centroids[e2c[:, 1]])
        dist = np.maximum(np.linalg.norm(c1 - c0, axis=1), 1e-9)
        self.edge_weight = (length / dist).astype(np.float32)

    def connectivity(self, name):
        table, n_target = self._tables[name]
        return Connectivity(table, n_target)
