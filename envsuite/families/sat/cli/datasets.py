"""``envsuite datasets ...``: build, import and verify the versioned datasets under ``datasets/``.

``envsuite datasets build sat`` writes ``datasets/sat/<name>/v<N>/`` deterministically
from a seed, with a MANIFEST of sha256 sums; building again with the same arguments
reproduces it byte for byte (and says so). ``import saturn DIR`` copies SATURN's released
data into the same layout after checking every line; ``verify PATH`` re-checks a folder.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from envsuite.cli.console import line, stderr, stdout
from envsuite.cli.exits import FAILURE, USAGE, exit_with, reports_errors
from envsuite.data_paths import datasets_root

datasets_app = typer.Typer(
    name="datasets",
    help="Build, import and verify the versioned datasets envs read (datasets/).",
    no_args_is_help=True,
)

ROOT_HELP = "The datasets root (default: envsuite's datasets/ or $ENVSUITE_DATASETS)."


def register(app: typer.Typer) -> None:
    """Add the ``datasets`` command group to ``app``."""
    app.add_typer(datasets_app, name="datasets")


def _sat_builder() -> Callable[..., Path]:
    from envsuite.families.sat.dataset_builder import build_dataset

    return build_dataset


#: Families with a dataset builder: name -> (default dataset name, builder factory).
BUILDERS: dict[str, tuple[str, Callable[[], Callable[..., Path]]]] = {
    "sat": ("envsuite-sat-2.6k", _sat_builder),
}


def _same_manifest(a: Path, b: Path) -> bool:
    try:
        return (a / "MANIFEST").read_bytes() == (b / "MANIFEST").read_bytes()
    except OSError:
        return False


def _install(build: Callable[[Path], Path], target: Path, force: bool) -> str:
    """Build into a scratch folder, then put it at ``target``; return what happened."""
    created = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        fresh = scratch / target.name
        build(fresh)
        if target.exists():
            if _same_manifest(fresh, target):
                return "up to date (the build reproduced it byte for byte)"
            if not force:
                exit_with(
                    f"{target} exists with different content; a changed dataset is a new "
                    "version (use --version N+1), or --force to replace it",
                    FAILURE,
                )
            shutil.rmtree(target)
            fresh.rename(target)
            return "replaced"
        fresh.rename(target)
        return "built"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        # A failed build leaves no empty folders behind.
        for folder in created:
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()


@datasets_app.command("build")
@reports_errors
def build_command(
    family: Annotated[
        str, typer.Argument(help=f"The family whose dataset to build: {', '.join(BUILDERS)}.")
    ],
    name: Annotated[str | None, typer.Option(help="Dataset name (default: the family's).")] = None,
    version: Annotated[int, typer.Option(min=1, help="Version folder v<N>.")] = 1,
    seed: Annotated[int, typer.Option(min=0, help="Root seed of the generator.")] = 0,
    root: Annotated[Path | None, typer.Option(help=ROOT_HELP)] = None,
    force: Annotated[
        bool, typer.Option(help="Replace an existing folder with other content.")
    ] = False,
) -> None:
    """Build a family's dataset into ROOT/<family>/<name>/v<version>/ with a MANIFEST."""
    if family not in BUILDERS:
        exit_with(f"no dataset builder for {family!r}; known: {', '.join(BUILDERS)}", USAGE)
    default_name, factory = BUILDERS[family]
    name = name or default_name
    if not name or "/" in name or name.startswith("."):
        exit_with(f"bad dataset name {name!r}", USAGE)
    builder = factory()
    target = (root or datasets_root()) / family / name / f"v{version}"
    outcome = _install(
        lambda out: builder(out, name=name, version=version, seed=seed), target, force
    )
    _report(target, outcome)


@datasets_app.command("import")
@reports_errors
def import_command(
    source_format: Annotated[
        str, typer.Argument(metavar="FORMAT", help="saturn: SATURN's data/ folder.")
    ],
    source: Annotated[Path, typer.Argument(help="The folder to import.")],
    name: Annotated[str, typer.Option(help="Dataset name.")] = "saturn-2.6k",
    version: Annotated[int, typer.Option(min=1, help="Version folder v<N>.")] = 1,
    root: Annotated[Path | None, typer.Option(help=ROOT_HELP)] = None,
    force: Annotated[
        bool, typer.Option(help="Replace an existing folder with other content.")
    ] = False,
) -> None:
    """Import SATURN's data (train/, test/) into ROOT/sat/<name>/v<version>/, checking each line."""
    if source_format != "saturn":
        exit_with(f"unknown import format {source_format!r}; known: saturn", USAGE)
    if not source.is_dir():
        exit_with(f"{source} is not a folder", USAGE)
    from envsuite.families.sat.dataset_builder import import_saturn

    target = (root or datasets_root()) / "sat" / name / f"v{version}"
    outcome = _install(lambda out: import_saturn(source, out, name=name), target, force)
    _report(target, outcome)


@datasets_app.command("verify")
@reports_errors
def verify_command(
    path: Annotated[Path, typer.Argument(help="A dataset version folder (holding a MANIFEST).")],
) -> None:
    """Check a dataset folder: MANIFEST sums, every instance, every prompt."""
    if not path.is_dir():
        exit_with(f"{path} is not a folder", USAGE)
    from envsuite.families.sat.dataset_builder import verify_dataset

    checked, problems = verify_dataset(path)
    for problem in problems[:50]:
        line(stderr(), problem, "red")
    if problems:
        exit_with(f"{path}: {len(problems)} problem(s) in {checked} instances", FAILURE)
    line(stdout(), f"{path}: OK ({checked} instances; MANIFEST, solutions and prompts check out)")


def _report(target: Path, outcome: str) -> None:
    files = sum(1 for p in target.rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    line(
        stdout(),
        f"{target}: {outcome}; {files} files, {size / 1e6:.1f} MB, sha256 sums in MANIFEST",
    )
