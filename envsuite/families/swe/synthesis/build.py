"""``envsuite swe synthesize``: turn a pinned library into validated problems on disk.

For one library: fetch and verify its sdist, build its problem image, run its suite on the
pristine source (twice), then take mutations in a seeded, kind-balanced order; a mutation
that breaks passing tests becomes a candidate problem (the broken tests' files are hidden and
become the test patch; the reverse mutation is the gold patch), which is kept only if it
validates (:func:`~envsuite.families.swe.synthesis.validate.validate_problem`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from envsuite.families.swe.dataset import (
    LIBRARY_FILE,
    PROBLEMS_FILE,
    Library,
    SourceFile,
    library_folder,
    sdist_tree,
    write_manifest,
)
from envsuite.families.swe.junit import TestOutcome
from envsuite.families.swe.patch_filter import is_test_file
from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.repo_snapshot import commit_tree, repo_archive, tar_folder
from envsuite.families.swe.synthesis.libraries import LibraryPin
from envsuite.families.swe.synthesis.mutators import MUTATOR_KINDS, Mutation, candidate_mutations
from envsuite.families.swe.synthesis.problem_statement import write_problem_statement
from envsuite.families.swe.synthesis.sdist import fetch_sdist
from envsuite.families.swe.synthesis.validate import baseline, screen, validate_problem
from envsuite.families.swe.unified_diff import make_file_diff
from envsuite.sandbox.docker_sandbox import DockerSandbox
from envsuite.sandbox.images import build_task_image
from envsuite.sandbox.interface import Sandbox
from envsuite.seeding import make_generator

Log = Callable[[str], None]
#: Broken tests above this share of the suite make a mutation too blunt to keep.
MAX_BROKEN_SHARE = 0.3


def runnable_test_files(tree: dict[str, SourceFile]) -> list[str]:
    """The suite's test modules (``test_*.py`` / ``*_test.py``), sorted."""
    return sorted(
        path
        for path in tree
        if is_test_file(path)
        and path.endswith(".py")
        and (path.rsplit("/", 1)[-1].startswith("test_") or path.endswith("_test.py"))
    )


def mutable_files(tree: dict[str, SourceFile], pin: LibraryPin) -> list[str]:
    """Source files that may be mutated (under ``pin.sources``, never tests)."""
    return sorted(
        path
        for path in tree
        if path.endswith(".py")
        and not is_test_file(path)
        and any(path == s or path.startswith(s.rstrip("/") + "/") for s in pin.sources)
    )


def ordered_candidates(
    tree: dict[str, SourceFile], pin: LibraryPin, seed: int
) -> list[tuple[Mutation, str]]:
    """Every mutation with its file's original text, shuffled then interleaved by kind."""
    by_kind: dict[str, list[tuple[Mutation, str]]] = {kind: [] for kind in MUTATOR_KINDS}
    for path in mutable_files(tree, pin):
        text = tree[path].data.decode("utf-8")
        for mutation in candidate_mutations(path, text):
            by_kind[mutation.kind].append((mutation, text))
    rng = make_generator(seed, "swe-synthesis", pin.name)
    for items in by_kind.values():
        order = rng.permutation(len(items))
        items[:] = [items[i] for i in order]
    interleaved = []
    while any(by_kind.values()):
        for kind in MUTATOR_KINDS:
            if by_kind[kind]:
                interleaved.append(by_kind[kind].pop(0))
    return interleaved


def make_problem(
    pin: LibraryPin,
    sdist_file: str,
    tree: dict[str, SourceFile],
    mutation: Mutation,
    original: str,
    broken: dict[str, TestOutcome],
    passing: set[str],
) -> SWEProblem:
    """The problem a screened mutation makes (its base commit still to be filled in)."""
    hidden = sorted({name.split("::", 1)[0] for name in broken})
    f2p = sorted(broken)
    p2p = sorted(n for n in passing if n.split("::", 1)[0] in hidden and n not in broken)
    bug = make_file_diff(mutation.path, original, mutation.source)
    gold = make_file_diff(mutation.path, mutation.source, original)
    tests = "".join(make_file_diff(path, None, tree[path].data.decode("utf-8")) for path in hidden)
    digest = hashlib.sha256(bug.encode("utf-8")).hexdigest()[:10]
    return SWEProblem(
        instance_id=f"{pin.name}__{mutation.kind}-{digest}",
        repo=pin.name,
        base_commit="",
        patch=gold,
        test_patch=tests,
        problem_statement=write_problem_statement(pin.name, pin.version, broken),
        FAIL_TO_PASS=tuple(f2p),
        PASS_TO_PASS=tuple(p2p),
        environment=pin.environment,
        source={"kind": "sdist", "file": sdist_file},
        bug_patch=bug,
        hidden_tests=tuple(hidden),
        test_files=tuple(hidden),
        metadata={
            "mutation": mutation.kind,
            "file": mutation.path,
            "line": mutation.line,
            "description": mutation.description,
        },
    )


def synthesize_library(
    pin: LibraryPin,
    root: Path,
    *,
    max_tasks: int = 10,
    max_candidates: int = 120,
    seed: int = 0,
    log: Log = print,
) -> list[SWEProblem]:
    """Synthesise and validate up to ``max_tasks`` problems of ``pin`` into ``root/<name>/v1``."""
    folder = library_folder(pin.name, root)
    folder.mkdir(parents=True, exist_ok=True)
    sdist = fetch_sdist(pin.name, pin.version, pin.sdist_sha256)
    shutil.copy(sdist, folder / sdist.name)
    library = Library(pin.name, pin.version, sdist.name, pin.sdist_sha256, pin.environment, folder)
    (folder / LIBRARY_FILE).write_text(json.dumps(library.to_json(), indent=2) + "\n")
    image = build_task_image(pin.environment, log=log)
    environment = pin.environment.sandbox_environment(image)

    def new_sandbox() -> Sandbox:
        return DockerSandbox.start(environment)

    tree = sdist_tree(folder / sdist.name)
    test_files = runnable_test_files(tree)
    kept: list[SWEProblem] = []
    with new_sandbox() as screening:
        screening.load_repo(_pristine_archive(tree))
        passing = baseline(screening, pin.environment, test_files)
        log(f"{pin.name}: {len(passing)} tests pass on the pristine source")
        if not passing:
            raise RuntimeError(f"{pin.name}: no test passes on the pristine source")
        lines_used: set[tuple[str, int]] = set()
        for index, (mutation, original) in enumerate(ordered_candidates(tree, pin, seed)):
            if len(kept) >= max_tasks or index >= max_candidates:
                break
            if (mutation.path, mutation.line) in lines_used:
                continue
            result = screen(screening, pin.environment, test_files, mutation, original, passing)
            share = len(result.broken) / len(passing)
            if not result.broken or share > MAX_BROKEN_SHARE:
                continue
            problem = make_problem(
                pin, sdist.name, tree, mutation, original, result.broken, passing
            )
            _, commit = repo_archive(problem)
            problem = _with_commit(problem, commit)
            reason = validate_problem(problem, new_sandbox)
            if reason is not None:
                log(f"{pin.name}: rejected {problem.instance_id}: {reason}")
                continue
            lines_used.add((mutation.path, mutation.line))
            kept.append(problem)
            log(
                f"{pin.name}: kept {problem.instance_id} ({len(problem.FAIL_TO_PASS)} FAIL_TO_PASS)"
            )
    kept.sort(key=lambda t: t.instance_id)
    (folder / PROBLEMS_FILE).write_text("".join(t.to_json_line() + "\n" for t in kept))
    write_manifest(folder)
    return kept


def _with_commit(problem: SWEProblem, commit: str) -> SWEProblem:
    return dataclasses.replace(problem, base_commit=commit)


def _pristine_archive(tree: dict[str, SourceFile]) -> bytes:
    with tempfile.TemporaryDirectory(prefix="envsuite-pristine-") as scratch:
        folder = Path(scratch)
        commit_tree(tree, folder)
        return tar_folder(folder)
