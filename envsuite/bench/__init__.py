"""Speed measured as ratios: envsuite against the raw loop (and a peer) in the same run.

Each row of ``envsuite bench`` (:mod:`envsuite.bench.rows`) times envsuite's loop and the
leanest loop doing the same work in turns, round after round, on one clock (CPU seconds),
so a busy machine slows both alike and the ratio stays meaningful. The loops live here, in
the package, and ``tests/benchmarks`` imports the same ones: a figure the README quotes is
measured by the loop the benchmarks check.

Modules: :mod:`.timing` (interleaved rounds and their summary), :mod:`.rows` (the table's
rows), :mod:`.decision`, :mod:`.runner`, :mod:`.sat`, :mod:`.drone`, :mod:`.drone_batch`,
:mod:`.arm` (the loops), :mod:`.machine` (cores, load, versions) and :mod:`.report`
(markdown and JSON).
"""
