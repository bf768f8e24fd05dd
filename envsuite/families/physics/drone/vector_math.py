"""Small vector and matrix arithmetic whose bits do not depend on the CPU.

numpy hands a 1-D ``np.linalg.norm`` (``sqrt(dot(x, x))``), ``@``, ``np.dot`` and
``np.linalg.inv`` on float64 arrays to OpenBLAS, which picks its kernels per CPU (or by the
``OPENBLAS_CORETYPE`` variable); the kernels order, block and fuse (FMA) the sums
differently, so the last bits of the results, and from them a whole trajectory, depend on
the machine. The functions here use only IEEE additions, multiplications, divisions and
square roots, in the order written, which every CPU rounds alike. On 3-vectors and 4×4
matrices they are also quicker than numpy's calls, whose overhead dwarfs the arithmetic.

They take plain floats (or anything that indexes like a sequence of floats, numpy arrays
included) and return plain floats; :func:`matvec_columns` works on numpy columns
elementwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Vector3 = tuple[float, float, float]
#: What the functions take as a vector: floats indexable by position, numpy arrays included.
Vector = Sequence[float] | np.ndarray


def dot3(a: Vector, b: Vector) -> float:
    """``a · b`` of two 3-vectors, summed x, y, z."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm3(a: Vector) -> float:
    """Euclidean length of a 3-vector, ``sqrt(a · a)``."""
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


def distance3(a: Vector, b: Vector) -> float:
    """Euclidean distance between two 3-D points, :func:`norm3` of ``a − b``."""
    x, y, z = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return math.sqrt(x * x + y * y + z * z)


def times3(rows: Sequence[Vector], vector: Vector) -> Vector3:
    """``M v`` for a 3×3 matrix ``M`` given by its rows: each row dotted with ``v``."""
    return dot3(rows[0], vector), dot3(rows[1], vector), dot3(rows[2], vector)


def transpose_times3(rows: Sequence[Vector], vector: Vector) -> Vector3:
    """``Mᵀ v`` for a 3×3 matrix ``M`` given by its rows: each column dotted with ``v``."""
    r0, r1, r2 = rows
    v0, v1, v2 = vector[0], vector[1], vector[2]
    return (
        r0[0] * v0 + r1[0] * v1 + r2[0] * v2,
        r0[1] * v0 + r1[1] * v1 + r2[1] * v2,
        r0[2] * v0 + r1[2] * v1 + r2[2] * v2,
    )


def matvec_columns(matrix: np.ndarray, vector: Vector) -> np.ndarray:
    """``matrix @ vector`` for a matrix ``(N, K)`` of a few columns, elementwise in numpy.

    The products are summed column by column, first to last, for every row alike: the same
    floats as writing ``m[0] * v[0] + m[1] * v[1] + ...`` out for each row.
    """
    total = matrix[:, 0] * vector[0]
    for column in range(1, len(vector)):
        total = total + matrix[:, column] * vector[column]
    return np.asarray(total)


def inverse(matrix: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """The inverse of a small square matrix, by Gauss-Jordan elimination with partial pivoting.

    Meant for the 4×4 motor mixers (worked out once per controller); within a few ulps of
    ``np.linalg.inv``, but the same bits on every CPU.

    Raises:
        ValueError: The matrix is singular.
    """
    rows = [[float(value) for value in row] for row in np.asarray(matrix, dtype=np.float64)]
    size = len(rows)
    result = [[1.0 if i == j else 0.0 for j in range(size)] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        if rows[pivot][column] == 0.0:
            raise ValueError("the matrix is singular")
        rows[column], rows[pivot] = rows[pivot], rows[column]
        result[column], result[pivot] = result[pivot], result[column]
        scale = rows[column][column]
        rows[column] = [value / scale for value in rows[column]]
        result[column] = [value / scale for value in result[column]]
        for row in range(size):
            factor = rows[row][column]
            if row == column or factor == 0.0:
                continue
            rows[row] = [a - factor * b for a, b in zip(rows[row], rows[column], strict=True)]
            result[row] = [a - factor * b for a, b in zip(result[row], result[column], strict=True)]
    return np.array(result)
