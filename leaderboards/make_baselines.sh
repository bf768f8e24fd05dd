#!/usr/bin/env bash
# How the committed boards and their baseline submissions were made (run from the checkout
# root, on a tree without these boards; `envsuite leaderboard create` refuses existing ones).
# Each baseline is a real run of the board's own protocol, submitted and verified with every
# trace replayed. The SAT boards were published by hand once the SAT family had landed
# (`envsuite leaderboard publish sat-curriculum`, and sat-interactive).
set -euo pipefail
E="${E:-envsuite}"
R="${RUNS:-/tmp/envsuite-baseline-runs}"
LEAK="Baseline with no learned parameters, written before the board existed; it never saw the board's problems, seeds or traces."
# Reads lines "board|agent|slug|name|note": runs each agent on the board's v1 protocol, then
# submits the run with every trace replayed.
baselines() {
  while IFS='|' read -r board agent slug name note; do
    start=$(date +%s.%N)
    $E eval "leaderboards/$board/v1/protocol.yaml" --agent "$agent" --out "$R/$board-$slug" --no-progress > /dev/null
    hours=$(python3 -c "print(round(($(date +%s.%N) - $start) / 3600, 5))")
    $E leaderboard submit "$R/$board-$slug" --board "$board" --name "$name" --author "envsuite maintainers" \
      --leakage "$LEAK" --hardware "2 CPU cores (x86_64), no GPU" --wall-time-hours "$hours" \
      --notes "Baseline: $note. Code: this repository." --replay all
  done
}

# Text worlds (text family, part 2). `make_baselines.sh text-worlds` makes this board alone
# (e.g. after an env joins tasks/text-worlds.yaml; delete leaderboards/text-worlds first).
text_worlds() {
  $E leaderboard create tasks/text-worlds.yaml --seeds 10 --metric mean_score --replay-per-env 4 --title "Text worlds: quests, question games and negotiation (test split)"
  baselines <<'LIST'
text-worlds|random|random|Random|random text, or a random admissible command where the env lists them
text-worlds|oracle|oracle|Oracle (reference policies)|each env's reference policy (TextQuest: the certified shortest walkthrough; TwentyQuestions and GuessMyCity: the information-gain questioner; Negotiation: the best response to the dealer's known strategy)
LIST
  $E leaderboard publish text-worlds
}
if [ "${1:-}" = text-worlds ]; then
  rm -rf "$R"/text-worlds-*
  text_worlds
  $E leaderboard render
  exit 0
fi

# Social deduction (social family). `make_baselines.sh social-deduction` makes this board
# alone. The panel's round robin (each bot alone in every seat among the other, and each
# bot's self-play game, per seed) is played and frozen with the board.
social_deduction() {
  $E leaderboard create tasks/social-deduction.yaml --replay-per-env 4 --workers 2 --title "Social deduction: one seat against a field of reference bots, scored in duplicate"
  baselines <<'LIST'
social-deduction|random|random|Random|a uniformly random legal action in its seat (never speaks)
social-deduction|oracle|belief-bots|Belief-tracking bots|each game's belief-tracking bot (envsuite.families.social: werewolf_bots.BeliefBot, avalon_bots.BeliefBot, amongus_bots.BeliefBot)
LIST
  $E leaderboard publish social-deduction
}
if [ "${1:-}" = social-deduction ]; then
  rm -rf "$R"/social-deduction-*
  social_deduction
  $E leaderboard render
  exit 0
fi

# GUI apps and web forms (gui family, Pillow simulator). `make_baselines.sh gui` makes this
# board alone.
gui() {
  $E leaderboard create tasks/gui.yaml --seeds 10 --metric success_rate --replay-per-env 2 --title "GUI: web-form tasks and generated apps in the simulator (test split)"
  baselines <<'LIST'
gui|random|random|Random|uniformly random actions from the Dict action space (clicks at random points, random keys, typing and scrolling)
gui|oracle|oracle|Oracle (scripted solvers and shortest-path planner)|each task's closed-loop oracle: the form tasks' scripted solvers and the apps' shortest-path planner over the screen graph
LIST
  $E leaderboard publish gui
}
if [ "${1:-}" = gui ]; then
  rm -rf "$R"/gui-*
  gui
  $E leaderboard render
  exit 0
fi

rm -rf "$R"
$E leaderboard create tasks/text-games-2p.yaml --seeds 50 --replay-per-env 4 --workers 2 --title "Two-player text games: Bradley-Terry rating against a fixed panel, with exploitability"
$E leaderboard create tasks/decision-regret.yaml --seeds 10 --metric success_rate --replay-per-env 4 --title "In-context decision making: regret"
$E leaderboard create tasks/decision-games.yaml --seeds 10 --metric regret --replay-per-env 4 --title "Repeated matrix games: regret in self-play"
$E leaderboard create tasks/sat-curriculum.yaml --seeds 10 --metric pass@1 --replay-per-env 4 --title "SAT curriculum: pass@k by SATURN difficulty"
$E leaderboard create tasks/sat-interactive.yaml --metric pass@1 --replay-per-env 4 --title "Interactive SAT: solving with feedback"
$E leaderboard create tasks/text-puzzles.yaml --seeds 10 --metric pass@1 --replay-per-env 4 --title "Text puzzles: word games, logic puzzles and chess endgames (test split)"
baselines <<'LIST'
text-games-2p|random|random|Random|uniform random legal moves
text-games-2p|envsuite.leaderboard.baseline_agents:HalfOracle|half-oracle|Half oracle|the env's oracle half of the time, a random legal move otherwise (envsuite.leaderboard.baseline_agents.HalfOracle)
text-games-2p|oracle|oracle|Oracle (CFR+ equilibrium / exact solver)|the CFR+ equilibrium in the poker games, the exact Connect Four solver on the 4 x 5 board
decision-regret|random|random|Random|uniform random actions
decision-regret|oracle|oracle|Oracle (UCB1 / LinUCB / Hedge)|the reference policy of each env
decision-games|random|random|Random|uniform random actions in both seats
decision-games|oracle|oracle|Oracle (fictitious play)|fictitious play in both seats (envsuite.families.decision.game_policies)
decision-games|envsuite.leaderboard.baseline_agents:TitForTat|tit-for-tat|Tit for tat|scripted tit-for-tat bot in both seats (game_policies.TitForTatAgent)
decision-games|envsuite.leaderboard.baseline_agents:Hedge|hedge|Hedge|multiplicative weights in both seats (game_policies.HedgeAgent)
sat-curriculum|random|random|Random|uniformly random assignments in SATURN's answer format
sat-curriculum|oracle|oracle-sat-solver|Oracle (SAT solver)|a complete SAT solver (envsuite.families.sat.solver_oracle)
sat-interactive|random|random|Random|uniformly random commands
sat-interactive|oracle|oracle-sat-solver|Oracle (SAT solver)|a complete SAT solver that submits its solution (envsuite.families.sat.solver_oracle)
text-puzzles|random|random|Random|random text, or a random legal action where the env lists them
text-puzzles|oracle|oracle|Oracle (solvers)|each game's reference solver (Wordle/Hangman candidate solvers, Knuth minimax, constraint, Sudoku and Sokoban solvers, BFS, depth-to-mate tables)
LIST
$E leaderboard publish text-games-2p
$E leaderboard publish decision-regret
$E leaderboard publish decision-games
$E leaderboard publish text-puzzles
text_worlds
$E leaderboard schema --out leaderboards/submission.schema.json
$E leaderboard render
