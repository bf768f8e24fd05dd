"""Every tampered copy of a real submission is rejected, by the check meant to catch it."""

from __future__ import annotations

import pytest

from envsuite.leaderboard.board_admin import publish
from envsuite.leaderboard.errors import (
    CompletenessError,
    ConsistencyError,
    FrozenBoardError,
    ManifestError,
    MetricMismatchError,
    SchemaError,
    TraceReplayError,
    VersionLockError,
)
from envsuite.leaderboard.verify import verify_submission
from tests.leaderboard.helpers import (
    entry,
    reclaim,
    replace_record,
    rewrite_records,
    rewrite_yaml,
)


def _reward_edit(records, index=5, step=3, delta=1.0):
    trace = [s.model_dump() for s in records[index].trace]
    trace[step]["reward"] += delta
    return replace_record(records, index, trace=trace)


def test_an_edited_reward_breaks_the_sum_of_the_trace(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, _reward_edit)
    with pytest.raises(ConsistencyError, match=r"episode_return .* is not the sum"):
        verify_submission(folder)


def test_an_edited_reward_with_a_matching_return_and_claims_fails_replay(board_copy):
    board = board_copy()
    folder = entry(board)

    def edit(records):
        changed = _reward_edit(records)
        return replace_record(changed, 5, episode_return=changed[5].episode_return + 1.0)

    rewrite_records(folder, edit)
    reclaim(board, folder)
    with pytest.raises(TraceReplayError, match=r"step 4: recorded reward .*, the env gives"):
        verify_submission(folder, replay="all")


def test_an_edited_success_flag_with_matching_claims_fails_replay(board_copy):
    board = board_copy()
    folder = entry(board)
    rewrite_records(folder, lambda rs: replace_record(rs, 2, success=not rs[2].success))
    reclaim(board, folder)
    with pytest.raises(TraceReplayError, match=r"success: recorded"):
        verify_submission(folder, replay="all")


def test_a_missing_seed_is_reported_as_missing(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, lambda rs: [r for r in rs if r.seed != 3])
    with pytest.raises(CompletenessError, match=r"6 episode\(s\) of the protocol are missing"):
        verify_submission(folder)


def test_an_extra_episode_is_reported_as_extra(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, lambda rs: [*rs, rs[0].model_copy(update={"seed": 99})])
    with pytest.raises(CompletenessError, match=r"not in the protocol, e.g. .* seed 99"):
        verify_submission(folder)


def test_a_doubled_episode_is_reported_as_doubled(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, lambda rs: [*rs, rs[0]])
    with pytest.raises(CompletenessError, match=r"recorded twice"):
        verify_submission(folder)


def test_a_changed_env_version_is_refused_by_the_version_lock(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, lambda rs: replace_record(rs, 0, env_id="envsuite/Bandit-v1"))
    with pytest.raises(VersionLockError, match=r"envsuite/Bandit-v1 .* does not pin"):
        verify_submission(folder)


def test_a_changed_envsuite_release_is_refused_by_the_version_lock(board_copy):
    folder = entry(board_copy())
    rewrite_records(
        folder, lambda rs: [r.model_copy(update={"envsuite_version": "0.9.0"}) for r in rs]
    )
    with pytest.raises(VersionLockError, match=r"envsuite 0.9.0, which board .* does not accept"):
        verify_submission(folder)


def test_a_changed_spec_hash_is_refused_by_the_version_lock(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, lambda rs: replace_record(rs, 7, spec_hash="0" * 64))
    with pytest.raises(VersionLockError, match=r"spec hash 0{64} differs"):
        verify_submission(folder)


def test_a_forged_aggregate_is_caught_by_recomputation(board_copy):
    folder = entry(board_copy())
    rewrite_yaml(folder, "submission.yaml", lambda d: d["claimed"].update(success_rate=0.99))
    with pytest.raises(MetricMismatchError, match=r"claims success_rate = 0.99 but the records"):
        verify_submission(folder)


def test_a_claim_for_a_metric_the_board_does_not_compute_is_refused(board_copy):
    folder = entry(board_copy())
    rewrite_yaml(folder, "submission.yaml", lambda d: d["claimed"].update(elo=2000.0))
    with pytest.raises(MetricMismatchError, match=r"claims elo, which this board does not"):
        verify_submission(folder)


def test_a_trace_that_does_not_replay_is_rejected(board_copy):
    board = board_copy()
    folder = entry(board)

    def other_action(records):
        trace = [s.model_dump() for s in records[9].trace]
        names = {s["action"] for s in trace}
        trace[0]["action"] = next(n for n in sorted(names) if n != trace[0]["action"])
        return replace_record(records, 9, trace=trace)

    rewrite_records(folder, other_action)
    reclaim(board, folder)
    with pytest.raises(TraceReplayError, match=r"replay of envsuite/Bandit-v0 .* seed 0 attempt 1"):
        verify_submission(folder, replay="all")


def test_a_multi_agent_trace_that_does_not_replay_is_rejected(board_copy):
    folder = entry(board_copy("mini-games"), "oracle")

    def swap(records):
        trace = [s.model_dump() for s in records[0].trace]
        trace[2]["action"] = {"player_0": "tails", "player_1": "tails"}
        return replace_record(records, 0, trace=trace)

    rewrite_records(folder, swap)
    with pytest.raises(TraceReplayError, match=r"replay of envsuite/RepeatedGame-v0"):
        verify_submission(folder, replay="all")


def test_an_edit_without_a_new_manifest_fails_the_manifest(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, _reward_edit, remanifest=False)
    with pytest.raises(ManifestError, match=r"episodes.jsonl: sha256 is .* but MANIFEST"):
        verify_submission(folder)


def test_an_unlisted_log_file_fails_the_manifest(board_copy):
    folder = entry(board_copy())
    (folder / "logs").mkdir()
    (folder / "logs" / "agent.log").write_text("hello\n")
    with pytest.raises(ManifestError, match=r"agent.log is not listed"):
        verify_submission(folder)


def test_a_deleted_file_fails_the_manifest(board_copy):
    folder = entry(board_copy())
    (folder / "env_lock.json").unlink()
    with pytest.raises(ManifestError, match=r"env_lock.json is listed .* but missing"):
        verify_submission(folder)


def test_metadata_that_breaks_the_schema_is_refused(board_copy):
    folder = entry(board_copy())
    rewrite_yaml(folder, "submission.yaml", lambda d: d.update(authors=[], code_url="ftp://x"))
    with pytest.raises(SchemaError, match=r"authors.*code_url|code_url.*authors"):
        verify_submission(folder)


def test_a_record_that_breaks_the_schema_is_refused(board_copy):
    folder = entry(board_copy())
    lines = (folder / "episodes.jsonl").read_text().splitlines()
    lines[4] = lines[4].replace('"length":', '"lenght":')
    (folder / "episodes.jsonl").write_text("\n".join(lines) + "\n")
    rewrite_yaml(folder, "submission.yaml", lambda d: None)
    with pytest.raises(SchemaError, match=r"episodes.jsonl:5 does not fit its schema"):
        verify_submission(folder)


def test_a_lock_that_disagrees_with_the_records_is_refused(board_copy):
    folder = entry(board_copy())
    rewrite_yaml(folder, "env_lock.json", lambda d: d["envs"][0].update(spec_hash="f" * 64))
    with pytest.raises(ConsistencyError, match=r"env_lock.json does not list the envs"):
        verify_submission(folder)


def test_records_of_another_agent_are_refused(board_copy):
    folder = entry(board_copy())
    rewrite_records(folder, lambda rs: replace_record(rs, 1, agent_id="oracle"))
    with pytest.raises(ConsistencyError, match=r"disagree on agent_id"):
        verify_submission(folder)


def test_an_edit_of_a_published_board_is_refused(board_copy):
    board = board_copy()
    publish(board.path.parent.parent, board.name)
    board_file = board.path / "board.yaml"
    board_file.write_text(board_file.read_text().replace("per_env: 1", "per_env: 0"))
    with pytest.raises(FrozenBoardError, match=r"published and frozen, but .*board.yaml changed"):
        verify_submission(entry(board))
