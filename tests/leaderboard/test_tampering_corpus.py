"""A corpus of tamperings with a real board and its submissions, each caught by its check.

Every case copies a pristine board (made once per session from real runs), changes one thing
the way a forger, a careless submitter or a hostile pull request would (see
``tampering.py``), and requires ``verify_submission`` to reject it with the error class of
the check meant to catch it and a message that says what is wrong.
``test_the_corpus_is_large`` keeps the count honest.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from envsuite.leaderboard.errors import (
    BoardError,
    CompletenessError,
    ConsistencyError,
    DuplicateRunError,
    FrozenBoardError,
    ManifestError,
    MetricMismatchError,
    SchemaError,
    SubmissionRejected,
    TraceReplayError,
    UnsafeInputError,
    VersionLockError,
)
from envsuite.leaderboard.manifest import MANIFEST_NAME
from envsuite.leaderboard.verify import verify_submission
from tests.leaderboard.helpers import replace_record
from tests.leaderboard.tampering import (
    Tamper,
    add_fifo,
    add_file,
    copy_entry,
    delete_file,
    edit_board_yaml,
    edit_draft_protocol,
    edit_lines,
    edit_manifest,
    edit_meta,
    edit_pin_config,
    edit_published,
    edit_record_json,
    edit_records,
    edit_trace,
    garble_frozen,
    hard_link,
    infra_error_record,
    other_arm,
    rename_folder,
    reward_and_return,
    set_step,
    symlink,
)


@dataclass(frozen=True)
class Case:
    """One tampering: what to do, and the check (error class and message) that catches it."""

    name: str
    tamper: Tamper
    error: type[SubmissionRejected]
    match: str
    replay: str = "none"
    board: str = "mini-bandit"


# -- the corpus ----------------------------------------------------------------------------
CASES = [
    # safety: names, links, special and oversize files, strict JSON
    Case(
        "symlinked log",
        symlink("log"),
        UnsafeInputError,
        r"agent.log is a symbolic link",
    ),
    Case(
        "symlinked submission folder",
        symlink("submission"),
        UnsafeInputError,
        "symbolic link",
    ),
    Case(
        "symlinked submissions folder",
        symlink("submissions"),
        UnsafeInputError,
        "submissions is a symbolic link",
    ),
    Case(
        "symlinked version folder",
        symlink("version"),
        BoardError,
        "v1 is a symbolic link",
    ),
    Case(
        "symlinked board folder",
        symlink("board"),
        BoardError,
        "bandit is a symbolic link",
    ),
    Case(
        "hard-linked log",
        hard_link("log"),
        UnsafeInputError,
        r"agent.log is a hard link",
    ),
    Case(
        "records hard-linked to another entry",
        hard_link("records"),
        UnsafeInputError,
        r"episodes.jsonl is a hard link",
    ),
    Case(
        "hard-linked board file",
        hard_link("board"),
        BoardError,
        r"board.yaml is a hard link",
    ),
    Case(
        "named pipe in logs",
        add_fifo,
        UnsafeInputError,
        r"pipe is not a regular file",
    ),
    Case(
        "oversize log",
        add_file("logs/huge.log", b"x" * ((1 << 20) + 1)),
        UnsafeInputError,
        r"huge.log is 1,048,577 bytes",
    ),
    Case(
        "stray top-level file",
        add_file("notes.txt", b"hi\n"),
        UnsafeInputError,
        "not a submission",
    ),
    Case(
        "hidden file in logs",
        add_file("logs/.hidden", b"x", manifest=False),
        UnsafeInputError,
        r"component '.hidden'",
    ),
    Case(
        "log nested five deep",
        add_file("logs/a/b/c/d.log", b"x"),
        UnsafeInputError,
        "short relative path",
    ),
    Case(
        "backslash in a log name",
        add_file("logs/a\\b.log", b"x", manifest=False),
        UnsafeInputError,
        "short relative path",
    ),
    Case(
        "folder name with spaces",
        rename_folder("2026_12_01 random"),
        UnsafeInputError,
        "YYYYMMDD_slug",
    ),
    Case(
        "folder name in capitals",
        rename_folder("20261201_Random"),
        UnsafeInputError,
        "YYYYMMDD_slug",
    ),
    Case(
        "malformed JSON line",
        edit_lines(lambda ls: [*ls[:2], "{not json\n", *ls[3:]]),
        UnsafeInputError,
        r"episodes.jsonl:3: malformed JSON",
    ),
    Case(
        "NaN in a record",
        edit_lines(
            lambda ls: [ls[0].replace('"wall_time_s":', '"wall_time_s":NaN,"x":', 1), *ls[1:]]
        ),
        UnsafeInputError,
        "NaN is not valid JSON",
    ),
    Case(
        "duplicate key in a record",
        edit_lines(lambda ls: [ls[0].replace("{", '{"seed":0,', 1), *ls[1:]]),
        UnsafeInputError,
        "duplicate key 'seed'",
    ),
    Case(
        "partial last line",
        edit_lines(lambda ls: [*ls[:-1], ls[-1].rstrip("\n")]),
        UnsafeInputError,
        "the last line has no newline",
    ),
    Case(
        "records not UTF-8",
        add_file("episodes.jsonl", b"\xff\n"),
        UnsafeInputError,
        "not UTF-8",
    ),
    Case(
        "submission.yaml a list",
        add_file("submission.yaml", b"- a\n- b\n"),
        UnsafeInputError,
        "must hold a mapping",
    ),
    Case(
        "submission.yaml not YAML",
        add_file("submission.yaml", b"name: [unclosed\n"),
        UnsafeInputError,
        "is not valid YAML",
    ),
    Case(
        "env_lock.json a list",
        add_file("env_lock.json", b"[]"),
        UnsafeInputError,
        "not a JSON object",
    ),
    # manifest
    Case(
        "records edited, manifest not",
        add_file("episodes.jsonl", b"{}\n", manifest=False),
        ManifestError,
        r"episodes.jsonl: sha256 is",
    ),
    Case(
        "unlisted log",
        add_file("logs/a.log", b"x", manifest=False),
        ManifestError,
        "not listed",
    ),
    Case(
        "listed file deleted",
        delete_file("env_lock.json"),
        ManifestError,
        "listed .* but missing",
    ),
    Case(
        "manifest deleted",
        delete_file(MANIFEST_NAME),
        ManifestError,
        "MANIFEST.sha256 is missing",
    ),
    Case(
        "malformed manifest line",
        edit_manifest(lambda text: text + "not a line\n"),
        ManifestError,
        "expected '<sha256>  <path>'",
    ),
    Case(
        "a path listed twice",
        edit_manifest(lambda text: text + text.splitlines()[0] + "\n"),
        ManifestError,
        "listed twice",
    ),
    Case(
        "manifest path traversal",
        edit_manifest(lambda text: text + f"{'0' * 64}  ../../../etc/passwd\n"),
        UnsafeInputError,
        r"'\.\./\.\./\.\./etc/passwd' is not allowed",
    ),
    # schema
    Case(
        "no authors, ftp code url",
        edit_meta("submission.yaml", lambda d: d.update(authors=[], code_url="ftp://x")),
        SchemaError,
        "authors.*code_url|code_url.*authors",
    ),
    Case(
        "unknown field in submission.yaml",
        edit_meta("submission.yaml", lambda d: d.update(verified_by="me")),
        SchemaError,
        "verified_by: Extra inputs",
    ),
    Case(
        "folder date is not the submission's",
        edit_meta("submission.yaml", lambda d: d.update(date="2026-12-24")),
        SchemaError,
        "not submission.yaml's date",
    ),
    Case(
        "env_lock.json lacks a field",
        edit_meta("env_lock.json", lambda d: d.pop("python")),
        SchemaError,
        "python: Field required",
    ),
    Case(
        "misspelled record field",
        edit_record_json(lambda d: d.update(lenght=d.pop("length"))),
        SchemaError,
        r"episodes.jsonl:5 does not fit its schema",
    ),
    Case(
        "negative length",
        edit_record_json(lambda d: d.update(length=-1)),
        SchemaError,
        "length: Input should be greater than or equal to 0",
    ),
    Case(
        "unknown stop reason",
        edit_record_json(lambda d: d.update(stop_reason="won")),
        SchemaError,
        "stop_reason",
    ),
    Case(
        "no records at all",
        add_file("episodes.jsonl", b""),
        SchemaError,
        "holds no records",
    ),
    # version lock
    Case(
        "env version bumped",
        edit_records(lambda rs: replace_record(rs, 0, env_id="envsuite/Bandit-v1")),
        VersionLockError,
        r"envsuite/Bandit-v1 .* does not pin",
    ),
    Case(
        "env kwargs changed",
        edit_records(
            lambda rs: replace_record(rs, 0, env_kwargs={**rs[0].env_kwargs, "horizon": 21})
        ),
        VersionLockError,
        "does not pin",
    ),
    Case(
        "another envsuite release",
        edit_records(lambda rs: [r.model_copy(update={"envsuite_version": "0.9.0"}) for r in rs]),
        VersionLockError,
        "envsuite 0.9.0, which board",
    ),
    Case(
        "forged record spec hash",
        edit_records(lambda rs: replace_record(rs, 7, spec_hash="0" * 64)),
        VersionLockError,
        r"spec hash 0{64} differs",
    ),
    # completeness
    Case(
        "a seed left out",
        edit_records(lambda rs: [r for r in rs if r.seed != 3]),
        CompletenessError,
        r"6 episode\(s\) of the protocol are missing",
    ),
    Case(
        "an extra seed",
        edit_records(lambda rs: [*rs, rs[0].model_copy(update={"seed": 99})]),
        CompletenessError,
        "not in the protocol, e.g. .* seed 99",
    ),
    Case(
        "an attempt beyond k",
        edit_records(lambda rs: [*rs, rs[0].model_copy(update={"attempt": 5})]),
        CompletenessError,
        "attempt 5",
    ),
    Case(
        "an episode twice",
        edit_records(lambda rs: [*rs, rs[0]]),
        CompletenessError,
        "recorded twice",
    ),
    Case(
        "the best episode copied over a bad one",
        edit_records(lambda rs: [rs[0].model_copy(update={"seed": rs[1].seed}), *rs[2:], rs[0]]),
        CompletenessError,
        "recorded twice|missing",
    ),
    # consistency
    Case(
        "an edited reward",
        edit_records(edit_trace(5, lambda t: t[3].__setitem__("reward", t[3]["reward"] + 1.0))),
        ConsistencyError,
        r"episode_return .* is not the sum",
    ),
    Case(
        "lock disagrees with the records",
        edit_meta("env_lock.json", lambda d: d["envs"][0].update(spec_hash="f" * 64)),
        ConsistencyError,
        "env_lock.json does not list the envs",
    ),
    Case(
        "one record of another agent",
        edit_records(lambda rs: replace_record(rs, 1, agent_id="oracle")),
        ConsistencyError,
        "disagree on agent_id",
    ),
    Case(
        "one record of another run",
        edit_records(lambda rs: replace_record(rs, 2, run_id="other")),
        ConsistencyError,
        "disagree on run_id",
    ),
    Case(
        "submission names another board version",
        edit_meta("submission.yaml", lambda d: d.update(board_version=2)),
        ConsistencyError,
        "names mini-bandit v2, not this board",
    ),
    Case(
        "attempts_k is not the board's",
        edit_meta("submission.yaml", lambda d: d.update(attempts_k=1)),
        ConsistencyError,
        "attempts_k is 1",
    ),
    Case(
        "submission and lock name other releases",
        edit_meta("submission.yaml", lambda d: d.update(envsuite_version="0.1.99")),
        ConsistencyError,
        "name other releases",
    ),
    Case(
        "a trace shorter than the episode",
        edit_records(
            lambda rs: replace_record(rs, 4, trace=[s.model_dump() for s in rs[4].trace[:-2]])
        ),
        ConsistencyError,
        "length 20 but its trace has 18 steps",
    ),
    Case(
        "an unserialisable action",
        edit_records(edit_trace(6, set_step(2, "action", {"unserialisable": "<object>"}))),
        ConsistencyError,
        "could not be recorded whole",
    ),
    Case(
        "an action cut by the trace cap",
        edit_records(edit_trace(6, set_step(2, "action", {"trace_cut": {"bytes": 10**6}}))),
        ConsistencyError,
        "could not be recorded whole",
    ),
    Case(
        "an infra error over the limit",
        edit_records(infra_error_record),
        ConsistencyError,
        "are infra errors",
    ),
    # uniqueness
    Case(
        "same records, another name",
        copy_entry("random"),
        DuplicateRunError,
        "20261201_random",
    ),
    Case(
        "same records, relabelled run and agent",
        copy_entry("oracle", relabel=True),
        DuplicateRunError,
        "20261201_oracle",
    ),
    Case(
        "same records, reordered",
        copy_entry("random", reverse=True),
        DuplicateRunError,
        "20261201_random",
    ),
    # recomputation
    Case(
        "a forged aggregate",
        edit_meta("submission.yaml", lambda d: d["claimed"].update(success_rate=0.99)),
        MetricMismatchError,
        "claims success_rate = 0.99 but the records",
    ),
    Case(
        "a claim the board does not compute",
        edit_meta("submission.yaml", lambda d: d["claimed"].update(elo=2000.0)),
        MetricMismatchError,
        "claims elo, which this board does not",
    ),
    Case(
        "a NaN claim",
        edit_meta("submission.yaml", lambda d: d["claimed"].update(mean_return=float("nan"))),
        MetricMismatchError,
        "claims mean_return = nan",
    ),
    # replay (claims recomputed from the edited records, as a careful forger would)
    Case(
        "reward and return edited together",
        edit_records(reward_and_return, claims=True),
        TraceReplayError,
        r"step 4: recorded reward",
        replay="all",
    ),
    Case(
        "success flipped",
        edit_records(lambda rs: replace_record(rs, 2, success=not rs[2].success), claims=True),
        TraceReplayError,
        "success: recorded",
        replay="all",
    ),
    Case(
        "another arm pulled",
        edit_records(other_arm, claims=True),
        TraceReplayError,
        r"replay of envsuite/Bandit-v0 .* seed 0 attempt 1",
        replay="all",
    ),
    Case(
        "a metric the env reports edited",
        edit_records(
            lambda rs: replace_record(rs, 8, metrics={**rs[8].metrics, "cumulative_regret": -1.0}),
            claims=True,
        ),
        TraceReplayError,
        "replay of",
        replay="all",
    ),
    Case(
        "a multi-agent joint action swapped",
        edit_records(
            edit_trace(0, set_step(2, "action", {"player_0": "tails", "player_1": "tails"})),
            slug="oracle",
        ),
        TraceReplayError,
        r"replay of envsuite/RepeatedGame-v0",
        replay="all",
        board="mini-games",
    ),
    # the board itself
    Case(
        "published board.yaml edited",
        edit_published("board.yaml", "per_env: 1", "per_env: 0"),
        FrozenBoardError,
        r"board.yaml changed since publication",
    ),
    Case(
        "published protocol edited",
        edit_published("protocol.yaml", "count: 4", "count: 3"),
        FrozenBoardError,
        r"protocol.yaml changed since publication",
    ),
    Case(
        "FROZEN.sha256 garbled",
        garble_frozen,
        FrozenBoardError,
        "changed since publication",
    ),
    Case(
        "marked published without FROZEN.sha256",
        edit_board_yaml(lambda d: d.update(published="2026-12-02")),
        FrozenBoardError,
        "marked published but has no FROZEN.sha256",
    ),
    Case(
        "draft protocol edited",
        edit_draft_protocol,
        BoardError,
        "does not have the sha256",
    ),
    Case(
        "pinned spec hash edited",
        edit_board_yaml(lambda d: d["envs"][0].update(spec_hash="1" * 64)),
        BoardError,
        "the pin was edited",
    ),
    Case(
        "pinned spec hash edited and re-frozen",
        edit_board_yaml(lambda d: d["envs"][2].update(spec_hash="2" * 64), True, freeze_again=True),
        BoardError,
        "the pin was edited",
    ),
    Case(
        "pinned config edited",
        edit_board_yaml(edit_pin_config),
        BoardError,
        "the pin was edited",
    ),
    Case(
        "a pin removed",
        edit_board_yaml(lambda d: d["envs"].pop()),
        BoardError,
        "the pinned envs are not the protocol's envs",
    ),
    Case(
        "board.yaml names another board",
        edit_board_yaml(lambda d: d.update(board="other-board")),
        BoardError,
        "says other-board v1 but sits in mini-bandit/v1",
    ),
    Case(
        "board.yaml with an unknown field",
        edit_board_yaml(lambda d: d.update(trusted=True)),
        BoardError,
        "not a valid board file",
    ),
    Case(
        "board limits raised past the schema",
        edit_board_yaml(lambda d: d["limits"].update(max_infra_error_fraction=2.0)),
        BoardError,
        "max_infra_error_fraction",
    ),
]


def test_the_corpus_is_large():
    assert len(CASES) >= 69
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_tampering_is_caught_by_its_check(case, board_copy, tmp_path):
    board = board_copy(case.board)
    folder = case.tamper(board, tmp_path)
    with pytest.raises(case.error, match=case.match) as caught:
        verify_submission(folder, replay=case.replay)
    assert type(caught.value) is case.error  # caught by the check meant for it
