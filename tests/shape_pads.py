"""The helper the shape fixes add to a file to pad an array's rows, as the tests expect it written
(shared by test_fix_shapes and test_fix_masked_rows)."""

PADDED_ROWS = '''\
def padded_rows(rows, size=None, bucket=16):
    """``rows`` padded with zeros along its first axis to ``size`` rows, or to the next power
    of two of at least ``bucket`` rows: one trace of a jitted function per size, not per length."""
    rows = jnp.asarray(rows)
    if size is None:
        size = max(bucket, 1 << max(len(rows) - 1, 0).bit_length())
    return jnp.zeros((size, *rows.shape[1:]), rows.dtype).at[: len(rows)].set(rows)


'''
