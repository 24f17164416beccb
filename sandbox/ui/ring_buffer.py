"""Preallocated ring buffers for live plots (no Qt, no per-sample allocation)."""

from __future__ import annotations

import numpy as np


class RingBuffer:
    """The last `capacity` rows of `columns` floats.

    Each row is written twice, at i and i + capacity, so the newest `capacity` rows
    are always one contiguous slice: `view()` returns it without copying.
    """

    def __init__(self, capacity: int, columns: int):
        self.capacity = capacity
        self._data = np.zeros((columns, 2 * capacity), dtype=np.float64)
        self._next = 0
        self.count = 0

    def append(self, row) -> None:
        i = self._next
        self._data[:, i] = row
        self._data[:, i + self.capacity] = row
        self._next = (i + 1) % self.capacity
        self.count = min(self.count + 1, self.capacity)

    def extend(self, rows: np.ndarray) -> None:
        """Append rows (n, columns), oldest first; only the newest `capacity` are kept."""
        rows = np.asarray(rows)[-self.capacity :]
        n = len(rows)
        first = min(n, self.capacity - self._next)  # up to the end of the first copy
        for start, part in ((self._next, rows[:first]), (0, rows[first:])):
            if len(part):
                self._data[:, start : start + len(part)] = part.T
                self._data[:, start + self.capacity : start + self.capacity + len(part)] = part.T
        self._next = (self._next + n) % self.capacity
        self.count = min(self.count + n, self.capacity)

    def view(self) -> np.ndarray:
        """(columns, count) array of rows, oldest first; a view into the buffer."""
        start = self._next if self.count == self.capacity else 0
        return self._data[:, start : start + self.count]

    def fill_columns(self, columns: slice, value: float) -> None:
        """Overwrite `columns` of every stored row, both copies of each."""
        self._data[columns] = value

    def clear(self) -> None:
        self._next = 0
        self.count = 0
