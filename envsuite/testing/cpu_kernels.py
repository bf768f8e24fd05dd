"""Run code under each choice of CPU kernels the machine allows, to check bits do not move.

OpenBLAS picks its kernels per CPU, or as ``OPENBLAS_CORETYPE`` says, and its kernels round
dot products, matrix products and inverses differently; numpy picks SIMD loops per CPU
(``NPY_DISABLE_CPU_FEATURES`` turns them off), and glibc picks FMA builds of its maths
functions (``GLIBC_TUNABLES``). An env whose episodes give the same digests under every
choice here gives them on other CPUs too, as far as these libraries go.

Example::

    from envsuite.testing.cpu_kernels import disagreements, outputs_under_kernels
    code = "import json, numpy as np; print(json.dumps([float(np.ones(3) @ np.ones(3))]))"
    assert not disagreements(outputs_under_kernels(code), ["dot"])
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

#: OpenBLAS core types forced, each with the CPU feature (numpy's name) it needs.
OPENBLAS_CORES = (("Haswell", "AVX2"), ("SkylakeX", "AVX512F"), ("Sandybridge", "AVX"))


def numpy_cpu_dispatch() -> tuple[dict[str, bool], list[str]]:
    """The CPU's features as numpy sees them, and the SIMD targets numpy picks among."""
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):  # 2, then 1
        try:
            umath = importlib.import_module(name)
        except ImportError:
            continue
        return dict(umath.__cpu_features__), list(umath.__cpu_dispatch__)
    return {}, []


def kernel_choices() -> dict[str, dict[str, str | None]]:
    """Environment changes, by name, that make OpenBLAS, numpy or glibc pick other kernels.

    The first, OpenBLAS's own choice, is the reference. Only OpenBLAS core types this CPU
    can run are forced (forcing one it cannot run would crash with an illegal instruction).
    """
    features, dispatched = numpy_cpu_dispatch()
    choices: dict[str, dict[str, str | None]] = {"openblas-own-choice": {"OPENBLAS_CORETYPE": None}}
    for core, needs in OPENBLAS_CORES:
        if features.get(needs):
            choices[f"openblas-{core}"] = {"OPENBLAS_CORETYPE": core}
    found = [name for name in dispatched if features.get(name)]
    if found:  # numpy's SIMD loops off: its baseline build only
        choices["numpy-baseline"] = {"NPY_DISABLE_CPU_FEATURES": " ".join(found)}
    choices["glibc-without-fma"] = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F"}
    return choices


def outputs_under_kernels(code: str, stdin: str = "", timeout: float = 300.0) -> dict[str, str]:
    """Standard output of ``python -c code`` under each of :func:`kernel_choices`.

    The subprocesses run at once, one OpenBLAS thread each, and import this ``envsuite``.

    Raises:
        RuntimeError: A subprocess failed (its standard error is in the message).
    """
    root = str(Path(__file__).resolve().parent.parent.parent)
    running = {}
    for name, changes in kernel_choices().items():
        environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        environment["PYTHONPATH"] = os.pathsep.join(
            [root, *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        for key, value in changes.items():
            if value is None:
                environment.pop(key, None)
            else:
                environment[key] = value
        running[name] = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
    outputs = {}
    for name, process in running.items():
        out, err = process.communicate(stdin, timeout=timeout)
        if process.returncode != 0:
            raise RuntimeError(f"{name}: exit {process.returncode}: {err}")
        outputs[name] = out
    return outputs


def disagreements(outputs: dict[str, str], labels: Sequence[str]) -> dict[str, list[str]]:
    """The cases whose value differs between kernel choices, and the choices that differ.

    Args:
        outputs: :func:`outputs_under_kernels`' result, where each output is a JSON list
            with one value (a digest, say) per case.
        labels: A name for each case, in the lists' order.

    Returns:
        Per differing case, the kernel choices whose value is not the first choice's
        (empty when every choice agrees on every case).

    Raises:
        ValueError: An output does not hold one value per label.
    """
    values = {name: json.loads(out) for name, out in outputs.items()}
    for name, listed in values.items():
        if not isinstance(listed, list) or len(listed) != len(labels):
            raise ValueError(f"{name}: expected a JSON list of {len(labels)} values")
    reference = next(iter(values.values()))
    differing = {
        label: sorted(name for name, listed in values.items() if listed[index] != reference[index])
        for index, label in enumerate(labels)
    }
    return {label: names for label, names in differing.items() if names}
