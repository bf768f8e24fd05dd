"""GuessMyCity-v0: the GeoNames table, its grammar, answers, splits and the oracle's bar."""

from __future__ import annotations

import collections

import pytest

import envsuite
from envsuite.families.text.guess_my_city_kb import city_kb
from envsuite.families.text.kb_oracle import KnowledgeGameOracle
from envsuite.families.text.kb_questions import fold
from envsuite.families.text.splits import split_counts

ENV_ID = "envsuite/GuessMyCity-v0"


@pytest.fixture(scope="module")
def kb():
    return city_kb()


def test_table_shape_and_splits(kb):
    assert len(kb.names) == 380 and len(kb.countries) == 134
    assert split_counts("guess_my_city", kb.names) == {"train": 287, "val": 47, "test": 46}
    assert int(kb.capital.sum()) == 131
    assert min(kb.population) >= 500_000
    assert all(p >= 1_500_000 or c for p, c in zip(kb.population, kb.capital, strict=True))


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Is it in Europe?", ("continent", "Europe")),
        ("Is it in the USA?", ("country", "United States")),
        ("is it located in the uk", ("country", "United Kingdom")),
        ("Is it in the Netherlands?", ("country", "The Netherlands")),
        ("Is it in the southern hemisphere?", ("south", "equator")),
        ("Is it west of the prime meridian?", ("west", "meridian")),
        ("Is it a capital city?", ("capital", "")),
        ("Does it have more than 5 million people?", ("more", "5000000")),
        ("Does it have more than 2,500,000 people?", ("more", "2500000")),
        ("Does it have at least 2.5 million people", ("more", "2499999")),
        ("Is its population under 800 thousand?", ("fewer", "800000")),
        ("Is it north of Paris?", ("north", "Paris")),
        ("Is it east of sao paulo?", ("east", "São Paulo")),
        ("Is it in the same country as Lagos?", ("country", "Nigeria")),
        ("Is it near the sea?", None),
        ("Is it north of Atlantis?", None),
        ("Does it have more than 2.5 people?", None),
    ],
)
def test_grammar_reads_questions(kb, text, question):
    expected = ("unknown", None) if question is None else ("question", question)
    assert kb.parse(text) == expected


def test_guesses_ignore_case_accents_and_apostrophes(kb):
    assert kb.parse("Is it Sao Paulo?") == kb.parse("SÃO PAULO") == ("guess", kb.index["sao paulo"])
    assert kb.parse("xi'an") == ("guess", kb.index["xian"])


def test_every_oracle_question_reads_back(kb):
    for question in kb.oracle_questions():
        assert kb.parse(kb.describe(question)) == ("question", question)


def test_answers_follow_geonames(kb):
    paris, sydney, tokyo, lagos = (kb.index[n] for n in ("paris", "sydney", "tokyo", "lagos"))
    assert kb.answer(("capital", ""), paris) and not kb.answer(("capital", ""), sydney)
    assert kb.answer(("continent", "Oceania"), sydney) and kb.answer(("south", "equator"), sydney)
    assert kb.answer(("north", "Tokyo"), paris) and not kb.answer(("north", "Paris"), tokyo)
    assert kb.answer(("east", "Paris"), tokyo) and kb.answer(("country", "Nigeria"), lagos)
    # "north of" itself: a city is not north of itself.
    assert not kb.answer(("north", "Paris"), paris) and not kb.answer(("south", "Paris"), paris)
    population = int(kb.population[paris])
    assert kb.answer(("more", str(population - 1)), paris)
    assert not kb.answer(("more", str(population)), paris)


def test_env_rules_in_play():
    env = envsuite.make(ENV_ID)
    env.reset(seed=0, options={"item": "Lagos"})
    observation, reward, *_ = env.step("Is it in Africa?")
    assert (observation, reward) == ("Yes.", 0.0)
    _, reward, _, _, info = env.step("Is it in africa")
    assert reward == -0.1 and "asked already" in info["parse_error"]
    observation, *_ = env.step("Is it near the sea?")
    assert observation == "I cannot answer that."
    observation, reward, term, _, info = env.step("Is it Abuja?")
    assert observation == "No, it is not Abuja." and not term
    _, _, _, _, info = env.step("abuja")
    assert "guessed already" in info["parse_error"]
    observation, reward, term, _, info = env.step("[Lagos]")
    assert observation == "Yes! It is Lagos." and reward == 1.0 and info["success"]


def test_oracle_names_every_city_within_twenty_turns(kb):
    """The bar (>= 99%): the oracle finds all 380 cities; mean about 9.3 turns."""
    turns = collections.Counter()
    env = envsuite.make(ENV_ID)
    oracle = KnowledgeGameOracle(env)
    for name in kb.names:
        observation, info = env.reset(seed=0, options={"item": name})
        terminated = truncated = False
        while not (terminated or truncated):
            observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
            assert info["parse_error"] is None
        assert info["success"], name
        turns[info["turn"]] += 1
    assert max(turns) <= 11
    mean = sum(t * n for t, n in turns.items()) / len(kb.names)
    assert 8.5 < mean < 10.0


@pytest.mark.parametrize("env_id", [ENV_ID, "envsuite/TwentyQuestions-v0"])
def test_vector_mode_oracle_wins_everything_as_in_text_mode(env_id):
    text_env = envsuite.make(env_id)
    env = envsuite.make(env_id, observation_mode="vector")
    kb = env.unwrapped.kb
    questions = len(kb.question_list)
    assert env.action_space.n == questions + len(kb.names)
    oracle, text_oracle = KnowledgeGameOracle(env), KnowledgeGameOracle(text_env)
    for name in kb.names:
        observation, info = env.reset(seed=0, options={"item": name})
        text_observation, text_info = text_env.reset(seed=0, options={"item": name})
        terminated = truncated = False
        while not (terminated or truncated):
            action = oracle.act(observation, info)
            assert info["action_mask"][action] == 1
            said = text_oracle.act(text_observation, text_info)
            expected = kb.names[action - questions] if action >= questions else None
            assert said == (expected or kb.describe(kb.question_list[action]))
            observation, _, terminated, truncated, info = env.step(action)
            text_observation, *_, text_info = text_env.step(said)
        assert info["success"] and info["parse_error"] is None
        assert observation[questions + kb.index[fold(name)]] == 1.0
        assert info["action_mask"].sum() == env.action_space.n - info["turn"]


def test_vector_mode_refuses_repeats_and_bad_indices():
    env = envsuite.make(ENV_ID, observation_mode="vector")
    observation, info = env.reset(seed=0, options={"item": "Lagos"})
    assert not observation.any() and info["action_mask"].all()
    observation, _, _, _, info = env.step(0)
    assert observation[0] in (1.0, -1.0) and info["action_mask"][0] == 0
    for bad in (0, -1, env.action_space.n, "0", 1.5):
        _, reward, _, _, info = env.step(bad)
        assert reward == -0.1 and info["parse_error"]
