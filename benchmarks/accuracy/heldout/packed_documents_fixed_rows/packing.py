"""Pack variable-length documents into batches of fixed-size rows, padding what is left of each row."""

import numpy as np


class DocumentPacker:
    def __init__(self, rows=4, row_len=16, pad_id=0):
        self.rows = rows
        self.row_len = row_len
        self.pad_id = pad_id

    def _empty(self):
        tokens = np.full((self.rows, self.row_len), self.pad_id, dtype=np.int32)
        mask = np.zeros((self.rows, self.row_len), dtype=np.float32)
        return tokens, mask

    def batches(self, documents):
        tokens, mask = self._empty()
        row, col = 0, 0
        for doc in documents:
            doc = doc[: self.row_len]
            if col + len(doc) > self.row_len:  # the document does not fit: start the next row
                row, col = row + 1, 0
            if row == self.rows:  # the batch is full: hand it out and start a new one
                yield tokens, mask
                tokens, mask = self._empty()
                row = 0
            tokens[row, col : col + len(doc)] = doc
            mask[row, col : col + len(doc)] = 1.0
            col += len(doc)
        if mask.any():
            yield tokens, mask
