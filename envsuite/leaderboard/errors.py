"""Why a submission or a board is rejected: one error class per check, messages as templates.

Every check of ``envsuite leaderboard verify`` raises its own subclass of
:class:`SubmissionRejected`, so a CI log (and a test) can tell an unsafe file from a missing
seed or a forged number. They are :class:`~envsuite.errors.UsageError` subclasses: the CLI
prints the message and exits 2, never a traceback.
"""

from __future__ import annotations

from envsuite.errors import UsageError

UNSAFE_NAME = "{what} {name!r} is not allowed: {why}"
SYMLINK = "{path} is a symbolic link; submissions must hold regular files only"
NOT_REGULAR = "{path} is not a regular file or folder"
HARD_LINK = (
    "{path} is a hard link ({links} names for one file); submissions must hold files of their own"
)
OVERSIZE = "{path} is {size:,} bytes, over the {limit:,}-byte limit for {what}"
MALFORMED_JSON = "{path}:{line}: malformed JSON: {why}"
MANIFEST_MISMATCH = "{path}: sha256 is {actual} but MANIFEST.sha256 lists {expected}"
UNLISTED_FILE = "{path} is not listed in MANIFEST.sha256"
MISSING_FILE = "{path} is listed in MANIFEST.sha256 but missing"
MISSING_EPISODES = "{count} episode(s) of the protocol are missing, e.g. {example}"
EXTRA_EPISODES = "{count} episode(s) are not in the protocol, e.g. {example}"
DUPLICATE_EPISODE = "episode recorded twice: {example}"
ENV_NOT_PINNED = (
    "records use {env_id} {kwargs}, which board {board} does not pin (it pins {pinned})"
)
SPEC_HASH = (
    "{env_id} {kwargs} seed {seed}: spec hash {actual} differs from the board's {expected} "
    "for envsuite {version} (env config, datasets or envsuite version changed)"
)
ENVSUITE_VERSION = (
    "records were made with envsuite {actual}, which board {board} does not accept "
    "(compatible: {compatible})"
)
PIN_HASH = (
    "{path} pins {env} with spec hash {actual}, but its pinned id, config and datasets give "
    "{expected} under envsuite {version}: the pin was edited"
)
DUPLICATE_RUN = (
    "these records are the same episodes as {original} (run fingerprint {fingerprint}); "
    "a run is entered once, whatever its name"
)
CLAIM_MISMATCH = "submission.yaml claims {metric} = {claimed} but the records give {actual}"
REPLAY_MISMATCH = "replay of {env_id} {kwargs} seed {seed} attempt {attempt}: {why}"
FROZEN_EDITED = (
    "board {board} v{version} is published and frozen, but {path} changed since publication "
    "(sha256 {actual}, frozen {expected}); make a new version with "
    "`envsuite leaderboard new-version {board}`"
)


class SubmissionRejected(UsageError):
    """A submission (or board) failed verification; the subclass names the check."""

    check = "verification"


class UnsafeInputError(SubmissionRejected):
    """Path traversal, a symlink, a special file, an oversize file or malformed JSON."""

    check = "safety"


class ManifestError(SubmissionRejected):
    """MANIFEST.sha256 does not match the files."""

    check = "manifest"


class SchemaError(SubmissionRejected):
    """A file does not fit its schema (submission.yaml, env_lock.json, episode records)."""

    check = "schema"


class BoardError(SubmissionRejected):
    """A board version that cannot be used (missing, malformed, or not matching its pins)."""

    check = "board"


class FrozenBoardError(BoardError):
    """A published (frozen) board version was edited."""

    check = "frozen"


class VersionLockError(SubmissionRejected):
    """Env ids, spec hashes or the envsuite version do not match the board's pins."""

    check = "version lock"


class CompletenessError(SubmissionRejected):
    """Episodes missing, extra or duplicated against the board's protocol."""

    check = "completeness"


class ConsistencyError(SubmissionRejected):
    """A record contradicts itself (its return is not the sum of its trace's rewards, ...)."""

    check = "consistency"


class DuplicateRunError(SubmissionRejected):
    """The records are those of an earlier submission of the same board version."""

    check = "uniqueness"


class MetricMismatchError(SubmissionRejected):
    """A number the submission claims differs from the one recomputed from the records."""

    check = "recomputation"


class TraceReplayError(SubmissionRejected):
    """A sampled action trace does not reproduce its recorded rewards in the real env."""

    check = "replay"
