"""Replays betting sequences that arbor's hold'em rules produced in OpenSpiel's
universal_poker (which runs ACPC's own game logic) and checks every recorded fact.

Usage: python holdem_openspiel.py SEQUENCES_FILE

Each line of the file is one hand, fields separated by ';':
  config     stack0 stack1 big_blind small_blind
  cards      9 card ids (rank*4+suit; ACPC's numbering, which universal_poker uses for its
             chance outcomes): position 0's hole cards, position 1's, then the board
  decisions  space-separated, each to_act,can_fold,min,max,spent0,spent1,action
             (min = max = 0 when no raise is legal; action 0 fold, 1 call, N>=2 raise to N,
             the fullgame action ids)
  end        payoff0,payoff1,ACPC text of the hand (betting:cards)

At each decision the script checks the player to act, the chips each has put in, whether
fold is legal, the raise bounds (min and max legal, min-1 and max+1 illegal, or no raise at
all), and on every FULL_CHECK_EVERY-th decision the whole legal action list. At the end it
checks the returns and ACPC's own text of the hand. It prints "OK <hands> hands, <decisions>
decisions, <seconds> s CPU", or
"MISMATCH <line number>: <what>" for the first difference and exits with status 1.
"""
import os
import sys
import time
import traceback

# Every refused probe makes OpenSpiel print its exception to stderr: silence fd 2 and report
# through a copy of it.
REAL_STDERR = os.fdopen(os.dup(2), "w")
DEVNULL = os.open(os.devnull, os.O_WRONLY)
os.dup2(DEVNULL, 2)

import pyspiel  # noqa: E402

FULL_CHECK_EVERY = 97


class Mismatch(Exception):
    pass


def load(stacks, big_blind, small_blind):
    return pyspiel.load_game(
        "universal_poker",
        {
            "betting": "nolimit",
            "numPlayers": 2,
            "numRounds": 4,
            "blind": f"{big_blind} {small_blind}",
            "firstPlayer": "2 1 1 1",
            "numSuits": 4,
            "numRanks": 13,
            "numHoleCards": 2,
            "numBoardCards": "0 3 1 1",
            "stack": f"{stacks[0]} {stacks[1]}",
            "bettingAbstraction": "fullgame",
        },
    )


def legal(state, action):
    """Whether OpenSpiel (ACPC's isValidAction) accepts `action`, found by trying it."""
    child = state.clone()
    try:
        child.apply_action(action)
    except pyspiel.SpielError:
        return False
    return True


def spent(state, stacks, player):
    # "[Money: 19900 19950]": chips behind, by player.
    text = state.information_state_string(player)
    money = text.split("[Money: ", 1)[1].split("]", 1)[0].split()
    return [stacks[0] - int(money[0]), stacks[1] - int(money[1])]


def deal_chance(state, cards):
    while state.is_chance_node():
        if not cards:
            raise Mismatch("OpenSpiel wants more cards than arbor dealt")
        state.apply_action(cards.pop(0))


def check_hand(game, stacks, cards, decisions, end, counter):
    state = game.new_initial_state()
    cards = list(cards)
    for step, decision in enumerate(decisions):
        deal_chance(state, cards)
        to_act, can_fold, lo, hi, spent0, spent1, action = decision
        where = f"decision {step} ({decision})"
        if state.is_terminal():
            raise Mismatch(f"{where}: OpenSpiel's hand is already over")
        if state.current_player() != to_act:
            raise Mismatch(f"{where}: OpenSpiel has player {state.current_player()} to act")
        theirs = spent(state, stacks, to_act)
        if theirs != [spent0, spent1]:
            raise Mismatch(f"{where}: OpenSpiel has spent {theirs}")
        if legal(state, 0) != bool(can_fold):
            raise Mismatch(f"{where}: OpenSpiel says fold legal = {not can_fold}")
        if lo:
            if not legal(state, lo):
                raise Mismatch(f"{where}: OpenSpiel refuses the min raise-to {lo}")
            if not legal(state, hi):
                raise Mismatch(f"{where}: OpenSpiel refuses the max raise-to {hi}")
            if lo - 1 >= 2 and legal(state, lo - 1):
                raise Mismatch(f"{where}: OpenSpiel accepts raise-to {lo - 1} below the min")
            if hi + 1 < game.num_distinct_actions() and legal(state, hi + 1):
                raise Mismatch(f"{where}: OpenSpiel accepts raise-to {hi + 1} above the max")
        else:
            for probe in (stacks[to_act], max(spent0, spent1) + 1):
                if 2 <= probe < game.num_distinct_actions() and legal(state, probe):
                    raise Mismatch(f"{where}: OpenSpiel accepts raise-to {probe}")
        counter[0] += 1
        if counter[0] % FULL_CHECK_EVERY == 0:
            expected = ([0] if can_fold else []) + [1]
            if lo:
                expected += list(range(lo, hi + 1))
            if state.legal_actions() != expected:
                raise Mismatch(f"{where}: OpenSpiel's legal actions differ")
        state.apply_action(action)
    deal_chance(state, cards)
    if not state.is_terminal():
        raise Mismatch("OpenSpiel's hand is not over after the last decision")
    payoffs = [int(v) for v in state.returns()]
    if payoffs != end[0]:
        raise Mismatch(f"OpenSpiel pays {payoffs}, arbor {end[0]}")
    acpc = state.to_dict()["acpc_state"].split("\n", 1)[0]
    if acpc != "STATE:0:" + end[1]:
        raise Mismatch(f"OpenSpiel's ACPC text is {acpc!r}")


def parse_line(line):
    config, cards, decisions, end = line.rstrip("\n").split(";")
    config = [int(x) for x in config.split()]
    cards = [int(x) for x in cards.split()]
    decisions = [tuple(int(x) for x in d.split(",")) for d in decisions.split()]
    payoff0, payoff1, text = end.split(",", 2)
    return config, cards, decisions, ([int(payoff0), int(payoff1)], text)


def main():
    games = {}
    counter = [0]
    hands = 0
    with open(sys.argv[1]) as lines:
        for number, line in enumerate(lines, 1):
            config, cards, decisions, end = parse_line(line)
            key = tuple(config)
            if key not in games:
                games[key] = load(config[:2], config[2], config[3])
            try:
                check_hand(games[key], config[:2], cards, decisions, end, counter)
            except (Mismatch, pyspiel.SpielError) as error:
                print(f"MISMATCH {number}: {error}", flush=True)
                return 1
            hands += 1
    print(f"OK {hands} hands, {counter[0]} decisions, {time.process_time():.1f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # report anything unexpected on the real stderr
        traceback.print_exc(file=REAL_STDERR)
        REAL_STDERR.flush()
        sys.exit(2)
