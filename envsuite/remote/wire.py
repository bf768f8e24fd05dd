"""Values on the wire: observations, actions, infos and kwargs as exact JSON.

``encode`` turns a Python value into JSON data that ``decode`` turns back into an equal
value of the same type, so a remote episode compares equal (``data_equivalence(...,
exact=True)``) to the in-process one:

- ``None``, bools, ints, floats (NaN and infinities as JSON's ``NaN``/``Infinity``, which
  Python's ``json`` reads and writes), strings and lists are themselves;
- a dict whose keys are all strings not starting with ``$`` is itself (values encoded);
- everything else is a one-key object whose key starts with ``$``:
  ``{"$tuple": [...]}``, ``{"$dict": [[key, value], ...]}`` (other keys),
  ``{"$bytes": "<base64>"}``, ``{"$scalar": ["float32", 0.5]}`` (numpy scalars),
  ``{"$array": ["int64", [2, 3], [[...], ...]]}`` (numpy arrays as dtype, shape and nested
  lists) and ``{"$image": ["data:image/png;base64,...", [H, W, C]]}`` for images: ``uint8``
  arrays of shape ``(H, W, 1)``, ``(H, W, 3)`` or ``(H, W, 4)``, sent as lossless PNG (the
  form chat agents send images in, see :mod:`envsuite.agents.image_parts`).

Decoding is for untrusted input: depth, item counts, array sizes and image pixels are
bounded, only plain numeric and bool dtypes are accepted, and any violation raises
:class:`WireError` naming what was wrong.
"""

from __future__ import annotations

import base64
import io
import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

#: Deepest nesting ``decode`` accepts (and ``encode`` produces).
MAX_DEPTH = 64
#: Most array elements (or image pixels) in one encoded array.
MAX_ARRAY_ELEMENTS = 50_000_000
#: Prefix of an image's data URL.
PNG_DATA_URL = "data:image/png;base64,"
#: The numpy dtype kinds that travel: bool, signed and unsigned ints, floats.
_DTYPE_KINDS = frozenset("biuf")
_IMAGE_CHANNELS = {1: "L", 3: "RGB", 4: "RGBA"}


class WireError(ValueError):
    """A value that cannot be encoded, or JSON data that is not a valid encoding."""


def dumps(data: Any) -> str:
    r"""Serialise already-encoded data (compact; NaN and infinities allowed).

    Non-ASCII characters are written as ``\\u`` escapes, so that any Python string,
    lone surrogates included (an agent may send one), travels exactly: a WebSocket text
    message must be valid UTF-8, which such a string is not.
    """
    return json.dumps(data, separators=(",", ":"), allow_nan=True, ensure_ascii=True)


def loads(text: str | bytes) -> Any:
    """Parse JSON text, raising :class:`WireError` for anything that is not JSON."""
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise WireError("JSON nested too deeply") from exc
    except (ValueError, TypeError) as exc:  # JSONDecodeError and bad bytes
        raise WireError(f"invalid JSON: {exc}") from exc


# -- encoding --------------------------------------------------------------------------
def encode(value: Any) -> Any:
    """Encode ``value`` as JSON data that :func:`decode` turns back into an equal value.

    Raises:
        WireError: ``value`` holds something with no exact wire form (an object array, an
            arbitrary object, a structure nested deeper than :data:`MAX_DEPTH`).
    """
    return _encode(value, 0)


def _encode(value: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise WireError(f"value nested deeper than {MAX_DEPTH} levels")
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [_encode(item, depth + 1) for item in value]
    if kind is dict:
        if all(type(key) is str and not key.startswith("$") for key in value):
            return {key: _encode(item, depth + 1) for key, item in value.items()}
        return {"$dict": [[_encode(k, depth + 1), _encode(v, depth + 1)] for k, v in value.items()]}
    if kind is tuple:
        return {"$tuple": [_encode(item, depth + 1) for item in value]}
    if isinstance(value, np.ndarray) and kind is np.ndarray:
        return _encode_array(value)
    if isinstance(value, np.generic) and value.dtype.kind in _DTYPE_KINDS:
        return {"$scalar": [value.dtype.str, value.item()]}
    if kind is bytes:
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    raise WireError(f"{kind.__name__} has no wire form")


def is_image(array: np.ndarray) -> bool:
    """Whether ``array`` travels as a PNG: ``uint8`` of shape ``(H, W, 1 | 3 | 4)``."""
    return (
        array.dtype == np.uint8
        and array.ndim == 3
        and array.shape[2] in _IMAGE_CHANNELS
        and array.shape[0] > 0
        and array.shape[1] > 0
    )


def _encode_array(array: np.ndarray) -> Any:
    if array.dtype.kind not in _DTYPE_KINDS:
        raise WireError(f"arrays of dtype {array.dtype} have no wire form")
    if is_image(array):
        return {"$image": [png_data_url(array), list(array.shape)]}
    return {"$array": [array.dtype.str, list(array.shape), array.tolist()]}


def png_data_url(array: np.ndarray) -> str:
    """A ``data:image/png;base64,...`` URL of an ``(H, W, 1 | 3 | 4)`` uint8 image."""
    from PIL import Image

    mode = _IMAGE_CHANNELS[array.shape[2]]
    pixels = array[:, :, 0] if mode == "L" else array
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), mode=mode).save(
        buffer, format="PNG", compress_level=1
    )
    return PNG_DATA_URL + base64.b64encode(buffer.getvalue()).decode("ascii")


# -- decoding --------------------------------------------------------------------------
def decode(data: Any) -> Any:
    """Turn JSON data made by :func:`encode` back into the value.

    Raises:
        WireError: ``data`` is not a valid encoding (unknown tag, bad dtype, shape and data
            that disagree, an image that is not a PNG of its stated shape, too deep).
    """
    return _decode(data, 0)


def _decode(data: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise WireError(f"value nested deeper than {MAX_DEPTH} levels")
    kind = type(data)
    if data is None or kind in (bool, int, float, str):
        return data
    if kind is list:
        return [_decode(item, depth + 1) for item in data]
    if kind is not dict:
        raise WireError(f"{kind.__name__} is not JSON data")
    tagged = [key for key in data if key.startswith("$")]
    if not tagged:
        return {key: _decode(item, depth + 1) for key, item in data.items()}
    if len(data) != 1:
        raise WireError(f"a tagged value has exactly one key, got {sorted(data)[:5]}")
    tag, body = next(iter(data.items()))
    if tag == "$tuple" and type(body) is list:
        return tuple(_decode(item, depth + 1) for item in body)
    if tag == "$dict" and type(body) is list:
        return _decode_pairs(body, depth)
    if tag == "$bytes" and type(body) is str:
        try:
            return base64.b64decode(body, validate=True)
        except ValueError as exc:
            raise WireError("$bytes is not base64") from exc
    if tag == "$scalar":
        return _decode_scalar(body)
    if tag == "$array":
        return _decode_array(body)
    if tag == "$image":
        return _decode_image(body)
    raise WireError(f"unknown or malformed tagged value {tag!r}")


def _decode_pairs(body: list[Any], depth: int) -> dict[Any, Any]:
    result: dict[Any, Any] = {}
    for pair in body:
        if type(pair) is not list or len(pair) != 2:
            raise WireError("$dict holds [key, value] pairs")
        key = _decode(pair[0], depth + 1)
        try:
            result[key] = _decode(pair[1], depth + 1)
        except TypeError as exc:  # an unhashable key (a list)
            raise WireError(f"$dict key is not hashable: {exc}") from exc
    return result


def _dtype(name: Any) -> np.dtype[Any]:
    if type(name) is not str or len(name) > 8:
        raise WireError(f"bad dtype {name!r:.40}")
    try:
        dtype = np.dtype(name)
    except TypeError as exc:
        raise WireError(f"bad dtype {name!r}") from exc
    if dtype.kind not in _DTYPE_KINDS:
        raise WireError(f"dtype {name!r} does not travel (bool, int and float only)")
    return dtype


def _decode_scalar(body: Any) -> Any:
    if type(body) is not list or len(body) != 2:
        raise WireError("$scalar is [dtype, value]")
    dtype = _dtype(body[0])
    value = body[1]
    if type(value) not in (bool, int, float):
        raise WireError("$scalar value must be a number or a bool")
    try:
        return dtype.type(value)
    except (OverflowError, ValueError, TypeError) as exc:
        raise WireError(f"$scalar {value!r} does not fit {dtype}") from exc


def _shape(value: Any) -> tuple[int, ...]:
    if type(value) is not list or len(value) > 32:
        raise WireError("shape must be a list of at most 32 sizes")
    if not all(type(size) is int and size >= 0 for size in value):
        raise WireError("shape sizes must be non-negative ints")
    if math.prod(value) > MAX_ARRAY_ELEMENTS:
        raise WireError(f"array of more than {MAX_ARRAY_ELEMENTS} elements")
    return tuple(value)


def _decode_array(body: Any) -> np.ndarray:
    if type(body) is not list or len(body) != 3:
        raise WireError("$array is [dtype, shape, data]")
    dtype = _dtype(body[0])
    shape = _shape(body[1])
    try:
        array = np.array(body[2], dtype=dtype)
    except (ValueError, TypeError, OverflowError) as exc:
        raise WireError(f"$array data does not fit {dtype}: {exc}") from exc
    if array.shape != shape:
        # An empty dimension loses the inner sizes in nested lists: reshape when the counts
        # agree, refuse otherwise.
        if array.size != math.prod(shape) or array.size != 0:
            raise WireError(f"$array data has shape {array.shape}, not {shape}")
        array = array.reshape(shape)
    return array


def _decode_image(body: Any) -> np.ndarray:
    from PIL import Image

    if type(body) is not list or len(body) != 2 or type(body[0]) is not str:
        raise WireError("$image is [data URL, shape]")
    shape = _shape(body[1])
    if len(shape) != 3 or shape[2] not in _IMAGE_CHANNELS or 0 in shape:
        raise WireError(f"$image shape must be (H, W, 1 | 3 | 4), got {shape}")
    url = body[0]
    if not url.startswith(PNG_DATA_URL):
        raise WireError("$image must be a data:image/png;base64 URL")
    try:
        raw = base64.b64decode(url[len(PNG_DATA_URL) :], validate=True)
        with Image.open(io.BytesIO(raw), formats=["PNG"]) as image:
            if image.size != (shape[1], shape[0]):
                raise WireError(f"$image is {image.size[0]}x{image.size[1]}, not as its shape")
            pixels = np.asarray(image.convert(_IMAGE_CHANNELS[shape[2]]), dtype=np.uint8)
    except WireError:
        raise
    except Exception as exc:  # Pillow raises many kinds for a corrupt PNG
        raise WireError(f"$image is not a readable PNG: {type(exc).__name__}") from exc
    return pixels.reshape(shape)


def encode_mapping(values: Mapping[str, Any]) -> dict[str, Any]:
    """Encode each value of a mapping with string keys (per-agent dicts on the wire)."""
    return {str(key): encode(value) for key, value in values.items()}
