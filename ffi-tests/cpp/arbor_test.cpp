// Tests of include/arbor.hpp, the C++17 layer, against the installed library. CI builds it
// with g++ -std=c++17 -Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion.

// The structs can be forward-declared before the header (typedef struct x {…} x;).
struct arbor_breakthrough;
struct arbor_parse_error;

#include "arbor.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>

// Nothing throws across the C boundary, and the compiler knows it.
static_assert(noexcept(arbor_hand_category(1)));
static_assert(noexcept(arbor_version()));
static_assert(noexcept(arbor_hand_rank(nullptr, 0, nullptr)));
static_assert(noexcept(arbor_build_info(nullptr, 0, nullptr)));
// The constants are typed as in C (size_t, uint32_t), not int or long.
static_assert(std::is_same_v<decltype(ARBOR_STATUS_TEXT_MAX), std::size_t>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(ARBOR_ABI_VERSION)>, std::uint32_t>);
static_assert(sizeof(arbor_status) == 4);
static_assert(static_cast<std::uint32_t>(arbor::Status::Unsupported) == 15);
static_assert(std::is_nothrow_move_constructible_v<arbor::Buffer>);
static_assert(!std::is_copy_constructible_v<arbor::Buffer>);
static_assert(std::is_error_code_enum_v<arbor::Status>);

static int passed = 0;
static int failed = 0;

#define CHECK(condition)                                                                   \
    do {                                                                                   \
        if (condition) {                                                                   \
            passed++;                                                                      \
        } else {                                                                           \
            failed++;                                                                      \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
        }                                                                                  \
    } while (0)

// Runs `body`, expecting an arbor::Error with `status`.
template <class Body> static bool throws_status(arbor::Status status, Body &&body) {
    try {
        std::forward<Body>(body)();
    } catch (const arbor::Error &e) {
        return e.status() == status && e.code() == status;
    }
    return false;
}

// rank * 4 + suit; suits c d h s.
static constexpr arbor::Card card(unsigned rank, unsigned suit) {
    return static_cast<arbor::Card>(rank * 4 + suit);
}

// ---- Breakthrough ------------------------------------------------------------------------

// Wall-clock bounds, on a machine shared with other work: each timing is the best of up to
// five attempts (stopping at the first within its bound), and sanitizer builds, about ten
// times slower an iteration, get ten times the room.
#if defined(__SANITIZE_ADDRESS__)
static constexpr std::uint64_t slack = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
static constexpr std::uint64_t slack = 10;
#else
static constexpr std::uint64_t slack = 1;
#endif
#else
static constexpr std::uint64_t slack = 1;
#endif
static constexpr std::uint64_t cancel_bound_us = 5000 * slack;   // cancel to return
static constexpr std::uint64_t overrun_bound_us = 1000 * slack;  // past a deadline
static constexpr int attempts = 5;

// A monotonic microsecond clock of the caller's, for arbor_search_limits.now_us (the no_std
// library has no clock of its own).
static std::uint64_t steady_us(void *) {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

// A parse that must fail: the line, column and message arbor reported.
template <class Body> static bool parse_fails(Body &&body, std::uint32_t column, const char *message) {
    try {
        std::forward<Body>(body)();
    } catch (const arbor::ParseError &e) {
        const bool ok = e.status() == arbor::Status::ParseError && e.line() == 1 &&
                        e.column() == column && e.detail() == message;
        if (!ok) {
            std::fprintf(stderr, "  parse error %u:%u %s\n", e.line(), e.column(), e.detail().c_str());
        }
        return ok;
    }
    return false;
}

static bool legal_in(const arbor::Breakthrough &position, std::uint32_t mv) {
    if (mv > 0xFFFF) return false;
    const std::vector<arbor::BreakthroughMove> moves = position.legal_moves();
    return std::find(moves.begin(), moves.end(), static_cast<arbor::BreakthroughMove>(mv)) != moves.end();
}

static void test_breakthrough_positions() {
    static_assert(std::is_trivially_copyable_v<arbor::Breakthrough>);
    static_assert(sizeof(arbor::Breakthrough) == ARBOR_BREAKTHROUGH_BYTES);

    const arbor::Breakthrough start = arbor::Breakthrough::initial(8, 8);
    const std::vector<arbor::BreakthroughMove> moves = start.legal_moves();
    CHECK(moves.size() == 22); // 8 straight moves, 7 diagonals each way
    CHECK(arbor::breakthrough_move_format(moves.front()) == "a2-a3");
    CHECK(start.status() == arbor::BreakthroughStatus::Ongoing && !start.over());
    CHECK(start.columns() == 8 && start.rows() == 8 && start.turn() == 0);
    CHECK(start.format().size() == 73);

    const arbor::Breakthrough five = arbor::Breakthrough::initial(5, 5);
    CHECK(five.format() == "BBBBB/BBBBB/...../WWWWW/WWWWW w");
    const arbor::Breakthrough parsed = arbor::Breakthrough::parse("BBBBB/BBBBB/...../WWWWW/WWWWW w");
    CHECK(parsed == five && parsed.hash() == five.hash() && parsed.hash() != start.hash());
    CHECK(std::memcmp(&parsed.raw(), &five.raw(), sizeof(arbor_breakthrough)) == 0);

    // Play: in place, the side to move changes; the copy is untouched.
    arbor::Breakthrough after = five;
    after.play(arbor::breakthrough_move_parse("c2-c3"));
    CHECK(after.turn() == 1 && after != five && after.hash() != five.hash());
    CHECK(after.format() == "BBBBB/BBBBB/..W../WW.WW/WWWWW b");
    CHECK(five.turn() == 0);
    // An illegal move throws and changes nothing.
    const arbor::Breakthrough before = after;
    CHECK(throws_status(arbor::Status::IllegalMove,
                        [&] { after.play(arbor::breakthrough_move_parse("c3-c4")); }));
    CHECK(after == before);

    // Move text both ways.
    const arbor::BreakthroughMove capture = arbor::breakthrough_move_parse("b4xa3");
    CHECK(arbor::breakthrough_move_format(capture) == "b4xa3");
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { (void)arbor::breakthrough_move_format(0xE000); }));
    CHECK(parse_fails([] { (void)arbor::breakthrough_move_parse("b4?a3"); }, 3,
                      "expected '-' for a move or 'x' for a capture"));
    CHECK(parse_fails([] { (void)arbor::breakthrough_move_parse("i4-a3"); }, 1,
                      "expected a square: a file 'a'-'h', then a rank '1'-'8'"));

    // Position parse errors: line, column, message.
    CHECK(parse_fails([] { (void)arbor::Breakthrough::parse("BB/BB/../WW/WW x"); }, 16,
                      "the side to move must be 'w' or 'b'"));
    CHECK(parse_fails([] { (void)arbor::Breakthrough::parse("B/B/./W/W w"); }, 2,
                      "a board has 2 to 8 columns"));
    CHECK(parse_fails([] { (void)arbor::Breakthrough::parse("W./../../.B w"); }, 0,
                      "the side to move has already won, so the game would have ended"));
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { (void)arbor::Breakthrough::initial(9, 8); }));

    // A game to its end: Black wins by reaching rank 1; then no moves, and play refuses.
    arbor::Breakthrough ending = arbor::Breakthrough::parse("..../..../.B../..W. b");
    ending.play(arbor::breakthrough_move_parse("b2-b1"));
    CHECK(ending.status() == arbor::BreakthroughStatus::BlackWon && ending.over());
    CHECK(ending.legal_moves().empty());
    CHECK(throws_status(arbor::Status::GameOver, [&] { ending.play(arbor::breakthrough_move_parse("c1-c2")); }));

    // A struct not filled by arbor is refused by every call.
    arbor_breakthrough foreign{};
    const arbor::Breakthrough raw = arbor::Breakthrough::from_raw(foreign);
    CHECK(throws_status(arbor::Status::NotInitialised, [&] { (void)raw.legal_moves(); }));
    foreign = five.raw();
    foreign.version += 1;
    CHECK(throws_status(arbor::Status::WrongVersion,
                        [&] { (void)arbor::Breakthrough::from_raw(foreign).format(); }));
}

static void test_breakthrough_solver() {
    arbor::Buffer table = arbor::breakthrough_solve_table(std::size_t{1} << 16);
    CHECK(table.size() == ((std::size_t{1} << 16) + 3) * 16);
    CHECK(reinterpret_cast<std::uintptr_t>(table.data()) % ARBOR_BREAKTHROUGH_SOLVE_ALIGN == 0);

    // The 4x5 start is a second-player win (the paper's result), as ffi-tests/solve.c has it.
    const arbor::SolveResult loss = arbor::breakthrough_solve("BBBB/BBBB/..../WWWW/WWWW w", table);
    CHECK(loss.outcome == arbor::SolveOutcome::Loss && loss.decided());
    CHECK(loss.best_move == ARBOR_BREAKTHROUGH_NO_MOVE);
    CHECK(loss.table_entries == (std::uint64_t{1} << 16) && loss.peak_entries > 0);
    // Race patterns: the same answer in fewer expansions.
    const arbor::SolveResult patterned = arbor::breakthrough_solve(
        arbor::Breakthrough::parse("BBBB/BBBB/..../WWWW/WWWW w"), table, UINT64_MAX,
        ARBOR_BREAKTHROUGH_SOLVE_PATTERNS);
    CHECK(patterned.outcome == arbor::SolveOutcome::Loss && patterned.expanded < loss.expanded);

    // A white pawn one step from the last rank: a win, and the winning move reaches it.
    const arbor::Breakthrough near = arbor::Breakthrough::parse("B.../.W../..../.... w");
    const arbor::SolveResult win = arbor::breakthrough_solve(near, table);
    CHECK(win.outcome == arbor::SolveOutcome::Win && win.best_move != ARBOR_BREAKTHROUGH_NO_MOVE);
    arbor::Breakthrough won = near;
    won.play(win.best_move);
    CHECK(won.status() == arbor::BreakthroughStatus::WhiteWon);

    // Out of budget is not an error; not a position is a parse error.
    const arbor::SolveResult spent = arbor::breakthrough_solve("BBBB/BBBB/..../WWWW/WWWW w", table, 10);
    CHECK(spent.outcome == arbor::SolveOutcome::BudgetSpent && !spent.decided() && spent.expanded <= 10);
    CHECK(parse_fails([&] { (void)arbor::breakthrough_solve("not a position", table); }, 1,
                      "expected a cell ('W', 'B' or '.'), '/' between rows, or a space before the side"));
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { (void)arbor::breakthrough_solve_table(12); }));
}

static void test_breakthrough_search() {
    static_assert(!std::is_copy_constructible_v<arbor::BreakthroughSearch>);
    static_assert(std::is_nothrow_move_constructible_v<arbor::BreakthroughSearch>);
    const arbor::Breakthrough start = arbor::Breakthrough::initial(8, 8);
    const bool own_clock = arbor::BreakthroughSearch::max_threads() > 1; // the std build

    CHECK(arbor::BreakthroughSearch::nodes_for_iterations(start, 1000) == 48 * 1000 + 1);
    const arbor_breakthrough_search_config mogo =
        arbor::breakthrough_search_default_config(arbor::SearchPolicy::Mogo);
    CHECK(mogo.policy == ARBOR_BREAKTHROUGH_SEARCH_MOGO && mogo.solver == 1);

    // A short search returns a legal move; k runs of n are one run of k·n.
    {
        arbor::BreakthroughSearch steps(start, 30000, 11);
        arbor::BreakthroughSearch once(start, 30000, 11);
        CHECK(reinterpret_cast<std::uintptr_t>(steps.buffer().data()) % ARBOR_BREAKTHROUGH_SEARCH_ALIGN == 0);
        CHECK(steps.buffer().size() == ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES + 30000 * ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES);
        const arbor::SearchProgress fresh = steps.best();
        CHECK(!fresh.has_move() && fresh.iterations == 0 && fresh.stop_reason == arbor::StopReason::None);
        arbor::SearchProgress p;
        for (std::uint64_t k = 1; k <= 5; k++) {
            p = steps.run(arbor::SearchLimits::iterations(200));
            CHECK(p.iterations == k * 200 && p.iterations_this_call == 200);
            CHECK(p.stop_reason == arbor::StopReason::Iterations);
        }
        const arbor::SearchProgress q = once.run(arbor::SearchLimits::iterations(1000));
        CHECK(q.iterations == 1000 && p.best_move == q.best_move && p.best_visits == q.best_visits);
        CHECK(p.best_value == q.best_value && p.root_visits == q.root_visits);
        CHECK(p.has_move() && legal_in(start, p.best_move));
        CHECK(p.best_value > 0.0 && p.best_value < 1.0);
        CHECK(std::memcmp(static_cast<const char *>(steps.buffer().data()) + ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES,
                          static_cast<const char *>(once.buffer().data()) + ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES,
                          steps.buffer().size() - ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES) == 0);
        const arbor::SearchProgress best = once.best();
        CHECK(best.best_move == q.best_move && best.iterations == q.iterations);
        const arbor_breakthrough_search_stats stats = once.tree_stats();
        CHECK(stats.nodes_used > 1 && stats.capacity_nodes == 30000 && stats.storage_full == 0);

        // Tree reuse: play the move, the subtree stays; the search goes on from it.
        once.play(static_cast<arbor::BreakthroughMove>(q.best_move));
        const arbor::SearchProgress kept = once.best();
        CHECK(kept.root_visits == q.best_visits && kept.iterations == 0);
        arbor::Breakthrough next = start;
        next.play(static_cast<arbor::BreakthroughMove>(q.best_move));
        const arbor::SearchProgress reply = once.run(arbor::SearchLimits::iterations(100));
        CHECK(reply.root_visits == kept.root_visits + 100 && legal_in(next, reply.best_move));
        CHECK(throws_status(arbor::Status::IllegalMove, [&] { once.play(arbor::breakthrough_move_parse("a2-a3")); }));

        // Moved: the new owner searches on, the old one is empty and refuses.
        arbor::BreakthroughSearch moved = std::move(steps);
        CHECK(moved.run(arbor::SearchLimits::iterations(10)).iterations == 1010);
        CHECK(throws_status(arbor::Status::NullPointer, [&] { steps.cancel(); }));
    }

    // A frame budget: a run within 3 ms stops at its deadline, overrunning by an iteration.
    {
        arbor::BreakthroughSearch search(start, 100000, 8, mogo);
        arbor::SearchLimits frame = arbor::SearchLimits::within(std::chrono::microseconds(3000));
        if (!own_clock) frame.clock(steady_us);
        std::uint64_t best_us = UINT64_MAX;
        arbor::SearchProgress p;
        int tries = 0;
        bool every = true;
        for (; tries < attempts && best_us >= 3000 + overrun_bound_us; tries++) {
            const std::uint64_t began = steady_us(nullptr);
            p = search.run(frame);
            const std::uint64_t took = steady_us(nullptr) - began;
            every = every && p.stop_reason == arbor::StopReason::Deadline && p.iterations_this_call > 0 && took >= 3000;
            best_us = std::min(best_us, took);
        }
        CHECK(every); // every attempt stopped at its deadline, not before
        std::printf("arbor_test: a 3000 us frame budget took %llu us (best of %d), %u iterations\n",
                    static_cast<unsigned long long>(best_us), tries, p.iterations_this_call);
        CHECK(best_us < 3000 + overrun_bound_us);
        CHECK(legal_in(start, p.best_move));
        // The caller's clock, deterministic: 100 us a reading, a 1000 us deadline = 9 iterations.
        std::uint64_t fake = 0;
        arbor::SearchLimits fake_frame = arbor::SearchLimits::within(std::chrono::microseconds(1000));
        fake_frame.clock([](void *ctx) { return *static_cast<std::uint64_t *>(ctx) += 100; }, &fake);
        p = search.run(fake_frame);
        CHECK(p.stop_reason == arbor::StopReason::Deadline && p.iterations_this_call == 9 && fake == 1100);
    }

    // Cancel from another thread: a run that would take 20 s returns promptly.
    {
        arbor::BreakthroughSearch search(start, 20000, 4); // fills, then searches on
        arbor::SearchLimits forever(0);
        forever.deadline(std::chrono::seconds(20)).clock(steady_us); // a guard only
        std::uint64_t best_us = UINT64_MAX;
        int tries = 0;
        bool every = true;
        for (tries = 0; tries < attempts && best_us >= cancel_bound_us; tries++) {
            std::atomic<std::uint64_t> cancelled_at{0};
            std::thread canceller([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                cancelled_at = steady_us(nullptr);
                search.cancel();
            });
            const arbor::SearchProgress p = search.run(forever);
            const std::uint64_t returned = steady_us(nullptr);
            canceller.join();
            every = every && p.stop_reason == arbor::StopReason::Cancelled && p.iterations_this_call > 0 &&
                    legal_in(start, p.best_move);
            best_us = std::min(best_us, returned - cancelled_at.load());
        }
        CHECK(every);
        std::printf("arbor_test: a cancel from another thread ended the run in %llu us (best of %d)\n",
                    static_cast<unsigned long long>(best_us), tries);
        CHECK(best_us < cancel_bound_us);
        // The run that reported the cancel cleared it; one made before a run stops that run.
        CHECK(search.run(arbor::SearchLimits::iterations(10)).stop_reason == arbor::StopReason::Iterations);
        search.cancel();
        const arbor::SearchProgress stopped = search.run(arbor::SearchLimits::iterations(10));
        CHECK(stopped.stop_reason == arbor::StopReason::Cancelled && stopped.iterations_this_call == 0);
    }

    // A win in one is proven: Done, and the game is then over for the handle.
    {
        const arbor::Breakthrough win = arbor::Breakthrough::parse("B..../..W../...../....B/..... w");
        arbor::BreakthroughSearch search(win, 5000, 3);
        const arbor::SearchProgress p = search.run(arbor::SearchLimits::iterations(500));
        CHECK(p.stop_reason == arbor::StopReason::Done && p.best_value == 1.0);
        CHECK(search.tree_stats().root_proof == ARBOR_BREAKTHROUGH_SEARCH_PROOF_WIN);
        search.play(static_cast<arbor::BreakthroughMove>(p.best_move));
        CHECK(throws_status(arbor::Status::GameOver, [&] { (void)search.run(arbor::SearchLimits::iterations(1)); }));
        CHECK(throws_status(arbor::Status::GameOver, [&] { arbor::BreakthroughSearch over(arbor::Breakthrough::parse("..W./..../..../B... b"), 10, 1); }));
    }

    // Threads (std build): two threads of 400 iterations count 800; the same seed, the same result.
    if (own_clock) {
        const arbor::Breakthrough small = arbor::Breakthrough::initial(6, 5);
        arbor::BreakthroughSearch a(small, 40000, 5, mogo, 2);
        arbor::BreakthroughSearch b(small, 40000, 5, mogo, 2);
        const arbor::SearchProgress p = a.run(arbor::SearchLimits::iterations(400), 2);
        const arbor::SearchProgress q = b.run(arbor::SearchLimits::iterations(400), 2);
        CHECK(p.iterations_this_call == 800 && p.best_move == q.best_move && p.root_visits == q.root_visits);
        CHECK(legal_in(small, p.best_move));
    } else {
        arbor::BreakthroughSearch one(start, 100, 1);
        CHECK(throws_status(arbor::Status::InvalidArgument, [&] { (void)one.run(arbor::SearchLimits::iterations(1), 2); }));
    }
}

// ---- Match-3 -----------------------------------------------------------------------------

// The 4x4 level of ffi-tests/match3.c: c1-c2 makes a line of four, then the fall lists bring
// a line of three in the top row: 120 + 2 * 60 = 240 points, one combo.
static const char CASCADE[] =
    "size 4x4\ncolours 4\ngrid\nCDCA\nDCDC\nDCAD\nAABA\nfall a BC\nfall b BA\nfall c BD\nfall d C\n";
// The small level of ffi-tests/playtest.c.
static const char SMALL_LEVEL[] = "size 6x6\ncolours 5\nmoves 8\nseed 3\n";

template <class Body>
static bool parse_fails_at(Body &&body, std::uint32_t line, std::uint32_t column, const char *message) {
    try {
        std::forward<Body>(body)();
    } catch (const arbor::ParseError &e) {
        const bool ok = e.line() == line && e.column() == column && e.detail() == message;
        if (!ok) {
            std::fprintf(stderr, "  parse error %u:%u %s\n", e.line(), e.column(), e.detail().c_str());
        }
        return ok;
    }
    return false;
}

static void test_match3_games() {
    static_assert(std::is_trivially_copyable_v<arbor::Match3Game>);
    static_assert(sizeof(arbor::Match3Game) == ARBOR_MATCH3_GAME_BYTES);
    static_assert(sizeof(arbor::Match3Level) == ARBOR_MATCH3_LEVEL_BYTES);

    const arbor::Match3Level level = arbor::Match3Level::parse(CASCADE);
    arbor::Match3Game game = arbor::Match3Game::start(level, 1);
    const std::vector<arbor::Match3Move> moves = game.legal_moves();
    const arbor::Match3Move code = arbor::match3_move_parse("c1-c2");
    CHECK(!moves.empty() && std::find(moves.begin(), moves.end(), code) != moves.end());
    CHECK(std::is_sorted(moves.begin(), moves.end()));
    const arbor::Match3Game before = game;
    CHECK(throws_status(arbor::Status::IllegalMove, [&] { (void)game.play(arbor::match3_move_parse("a1-b1")); }));
    CHECK(std::memcmp(&before.raw(), &game.raw(), sizeof(arbor_match3_game)) == 0);
    const arbor_match3_outcome outcome = game.play(code);
    CHECK(outcome.points == 240 && outcome.combos == 1 && outcome.legal_before == moves.size());
    const arbor_match3_metrics metrics = game.metrics();
    CHECK(metrics.score == 240 && metrics.moves == 1 && metrics.combos == 1 && metrics.move_limit == 20);
    CHECK(metrics.average_available == static_cast<double>(moves.size()) && !game.over());

    // Move text.
    CHECK(arbor::match3_move_parse(" c2-c1 ") == code);
    CHECK(arbor::match3_move_format(code) == "c1-c2");
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { (void)arbor::match3_move_format(0x80); }));
    CHECK(parse_fails_at([] { (void)arbor::match3_move_parse("c1-c3"); }, 1, 0, "the two cells are not neighbours"));
    CHECK(parse_fails_at([] { (void)arbor::match3_move_parse("c1-z3"); }, 1, 4,
                         "a cell is a letter a to h and a row 1 to 8"));

    // Level errors: line and column.
    CHECK(parse_fails_at([] { (void)arbor::Match3Level::parse("size 7x7\ncolours 9\n"); }, 2, 9,
                         "colours must be 3 to 8"));
    CHECK(parse_fails_at([] { (void)arbor::Match3Level::parse("size 4x4\ncolours 3\ngrid\nABCA\nBCAB\nCADC\nABCA\n"); },
                         6, 3, "grid letter beyond the number of colours"));
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { (void)arbor::Match3Level::preset(3); }));
    arbor_match3_level other = level.raw();
    other.version ^= 1;
    CHECK(throws_status(arbor::Status::WrongVersion,
                        [&] { (void)arbor::Match3Game::start(arbor::Match3Level::from_raw(other), 1); }));

    // Formulas and personas.
    const std::vector<std::uint8_t> formula = arbor::match3_formula_parse("div(W, N)");
    CHECK(formula.size() > 2 && formula[0] == 1);
    CHECK(parse_fails_at([] { (void)arbor::match3_formula_parse("add(W N)"); }, 1, 7, "expected `,`"));
    const arbor::Match3Persona persona =
        arbor::Match3Persona::parse("arbor-persona 1\ngoal MinM\nformula div(W, N)\ninfix W / N\n");
    CHECK(persona.goal() == arbor::Match3Goal::MinM && persona.formula_size() == formula.size());
    CHECK(std::equal(formula.begin(), formula.end(), persona.formula()));
    CHECK(parse_fails_at([] { (void)arbor::Match3Persona::parse("goal Best\nformula W\n"); }, 1, 6,
                         "goal must be MaxS, MinS, MaxM or MinM"));
    CHECK(parse_fails_at([] { (void)arbor::Match3Persona::parse("goal MaxS\n"); }, 0, 0, "no formula or bytecode line"));
    for (std::uint32_t i = 0; i < ARBOR_MATCH3_SHIPPED_PERSONAS; i++) {
        CHECK(arbor::Match3Persona::shipped(i).goal() == static_cast<arbor::Match3Goal>(i));
    }

    // A whole game on board1 with each agent: 20 legal moves, then the game is over.
    const arbor::Match3Level board1 = arbor::Match3Level::preset(0);
    CHECK(board1.tree_bytes(40) == 16 + 40 * (1 + 40 * 84));
    arbor::Buffer tree = board1.tree_buffer(40);
    arbor::Buffer none;
    const arbor::Match3Agent agents[] = {arbor::Match3Agent::random(), arbor::Match3Agent::vanilla(),
                                         arbor::Match3Agent::persona(arbor::Match3Persona::shipped(2))};
    for (const arbor::Match3Agent &agent : agents) {
        arbor::Match3Game g = arbor::Match3Game::start(board1, 7);
        std::uint32_t played = 0;
        while (!g.over() && played < 30) {
            (void)g.play(g.agent_move(agent, 40, 5 + played, agent.kind() == ARBOR_MATCH3_AGENT_RANDOM ? none : tree));
            played++;
        }
        const arbor_match3_metrics m = g.metrics();
        CHECK(played == 20 && m.moves == 20 && m.game_over == 1 && m.legal_now == 0 && m.score >= 20 * 60);
        CHECK(throws_status(arbor::Status::GameOver, [&] { (void)g.agent_move(agent, 40, 1, tree); }));
    }
}

static void test_match3_search() {
    const arbor::Match3Level board1 = arbor::Match3Level::preset(0);
    const arbor::Match3Game game = arbor::Match3Game::start(board1, 7);
    const arbor::Match3Agent vanilla = arbor::Match3Agent::vanilla();

    // 3 runs of 40 = one run of 120 = the one-shot agent with 120 iterations and the seed.
    arbor::Match3Search steps(board1, game, vanilla, 120, 9);
    arbor::Match3Search once(board1, game, vanilla, 120, 9);
    CHECK(steps.buffer().size() == 2392 + 40 * (1 + 120 * 84));
    CHECK(reinterpret_cast<std::uintptr_t>(steps.buffer().data()) % ARBOR_MATCH3_SEARCH_ALIGN == 0);
    arbor::SearchProgress p;
    for (std::uint64_t k = 1; k <= 3; k++) {
        p = steps.run(arbor::SearchLimits::iterations(40));
        CHECK(p.iterations == 40 * k && p.iterations_this_call == 40 && p.stop_reason == arbor::StopReason::Iterations);
    }
    const arbor::SearchProgress q = once.run(arbor::SearchLimits::iterations(120));
    CHECK(p.best_move == q.best_move && p.best_visits == q.best_visits && p.best_value == q.best_value);
    CHECK(q.root_visits == 120 && q.has_move());
    arbor::Buffer tree = board1.tree_buffer(120);
    CHECK(game.agent_move(vanilla, 120, 9, tree) == q.best_move);
    const std::vector<arbor::Match3Move> legal = game.legal_moves();
    CHECK(std::find(legal.begin(), legal.end(), q.best_move) != legal.end());

    // Tree reuse; the handle's game is the game with the move played.
    const arbor::Match3Move code = static_cast<arbor::Match3Move>(q.best_move);
    once.play(code);
    const arbor::SearchProgress more = once.run(arbor::SearchLimits::iterations(10));
    CHECK(more.iterations == 10 && more.root_visits > 10);
    arbor::Match3Game played = game;
    (void)played.play(code);
    CHECK(std::memcmp(&once.game().raw(), &played.raw(), sizeof(arbor_match3_game)) == 0);
    CHECK(throws_status(arbor::Status::IllegalMove, [&] { once.play(0x80); }));

    // A frame deadline by the caller's clock: 2 ms of readings 100 us apart = 19 iterations.
    std::uint64_t fake = 0;
    arbor::SearchLimits frame = arbor::SearchLimits::within(std::chrono::microseconds(2000));
    frame.clock([](void *ctx) { return *static_cast<std::uint64_t *>(ctx) += 100; }, &fake);
    const arbor::SearchProgress timed = once.run(frame);
    CHECK(timed.stop_reason == arbor::StopReason::Deadline && timed.iterations_this_call == 19);

    // Cancel from another thread: a run without an iteration limit returns promptly.
    arbor::SearchLimits forever(0);
    forever.deadline(std::chrono::seconds(20)).clock(steady_us);
    std::uint64_t best_us = UINT64_MAX;
    int tries = 0;
    bool every = true;
    for (tries = 0; tries < attempts && best_us >= cancel_bound_us; tries++) {
        std::atomic<std::uint64_t> cancelled_at{0};
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            cancelled_at = steady_us(nullptr);
            steps.cancel();
        });
        const arbor::SearchProgress c = steps.run(forever);
        const std::uint64_t returned = steady_us(nullptr);
        canceller.join();
        every = every && c.stop_reason == arbor::StopReason::Cancelled && c.iterations_this_call > 0 && c.has_move();
        best_us = std::min(best_us, returned - cancelled_at.load());
    }
    CHECK(every);
    std::printf("arbor_test: Match-3 search: a cancel from another thread ended the run in %llu us (best of %d)\n",
                static_cast<unsigned long long>(best_us), tries);
    CHECK(best_us < cancel_bound_us);
    steps.cancel();
    CHECK(steps.run(arbor::SearchLimits::iterations(10)).stop_reason == arbor::StopReason::Cancelled);
    CHECK(steps.run(arbor::SearchLimits::iterations(10)).stop_reason == arbor::StopReason::Iterations);

    // The Random agent chooses at once.
    arbor::Match3Search random(board1, game, arbor::Match3Agent::random(), 10, 3);
    const arbor::SearchProgress r = random.run(arbor::SearchLimits::iterations(10));
    CHECK(r.stop_reason == arbor::StopReason::Done && r.has_move());
    // A persona's formula goes into the handle.
    arbor::Match3Search persona(board1, game, arbor::Match3Agent::persona(arbor::Match3Persona::shipped(0)), 40, 3);
    CHECK(persona.run(arbor::SearchLimits::iterations(40)).has_move());
}

static void test_match3_playtest() {
    const char *const names[] = {"MaxS", "MinS", "MaxM", "MinM", "Vanilla", "Random"};
    for (std::uint32_t i = 0; i < ARBOR_MATCH3_PLAYTEST_AGENTS; i++) {
        CHECK(arbor::match3_playtest_agent_format(i) == names[i]);
    }
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { (void)arbor::match3_playtest_agent_format(6); }));

    const arbor::Match3Level level = arbor::Match3Level::parse(SMALL_LEVEL);
    const arbor_match3_playtest_report one_shot = arbor::match3_playtest(level, 3, 5, 10);
    for (std::size_t i = 0; i < ARBOR_MATCH3_PLAYTEST_AGENTS; i++) {
        CHECK(one_shot.games[i] == 3 && one_shot.min_score[i] >= 8 * 60);
        CHECK(static_cast<double>(one_shot.min_score[i]) <= one_shot.mean_score[i] &&
              one_shot.mean_score[i] <= static_cast<double>(one_shot.max_score[i]));
    }

    // In steps: a cancel before a step gives its game up; then 18 steps; the same report.
    arbor::Match3Playtest stepped(level, 3, 5, 10);
    stepped.cancel();
    arbor::Match3PlaytestProgress p = stepped.step();
    CHECK(p.stop_reason == arbor::StopReason::Cancelled && p.games_done == 0 && p.games_total == 18);
    std::uint32_t steps = 0;
    while ((p = stepped.step()).stop_reason == arbor::StopReason::Step && steps < 100) {
        steps++;
        CHECK(p.games_done == steps);
    }
    CHECK(steps == 18 && p.stop_reason == arbor::StopReason::Done && p.games_done == 18);
    const arbor_match3_playtest_report result = stepped.result();
    CHECK(std::memcmp(&result, &one_shot, sizeof result) == 0);

    // A long game (5,000 iterations a move), its step cancelled from another thread (a step
    // given up is replayed by the next, so the handle serves every attempt).
    arbor::Match3Playtest slow(level, 1, 1, 5000);
    std::uint64_t best_us = UINT64_MAX;
    int tries = 0;
    bool every = true;
    for (tries = 0; tries < attempts && best_us >= cancel_bound_us; tries++) {
        std::atomic<std::uint64_t> cancelled_at{0};
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            cancelled_at = steady_us(nullptr);
            slow.cancel();
        });
        const arbor::Match3PlaytestProgress c = slow.step();
        const std::uint64_t returned = steady_us(nullptr);
        canceller.join();
        every = every && c.stop_reason == arbor::StopReason::Cancelled && c.games_done == 0;
        best_us = std::min(best_us, returned - cancelled_at.load());
    }
    CHECK(every);
    std::printf("arbor_test: Match-3 playtest step cancelled from another thread: returned in %llu us (best of %d)\n",
                static_cast<unsigned long long>(best_us), tries);
    CHECK(best_us < cancel_bound_us);
}

// ---- Hold'em hands ------------------------------------------------------------------------

static void test_holdem_hands() {
    arbor::HoldemDealer dealer(42);
    const auto cards = dealer.next();
    CHECK(cards[0] == 5 * 4 + 1 && cards[8] == 4 * 4 + 2 && dealer.hands_dealt() == 1);
    arbor::HoldemHand hand = arbor::HoldemHand::start();
    hand.deal_hole(0, cards[0], cards[1]);
    hand.deal_hole(1, cards[2], cards[3]);
    CHECK(hand.info().min_raise_to == 200 && hand.info().to_act == 1);
    CHECK(throws_status(arbor::Status::IllegalMove, [&] { hand.apply(150); }));
    hand.apply(20000);
    hand.apply(ARBOR_HOLDEM_CALL);
    for (int i = 4; i < 9; i++) hand.deal_board(cards[static_cast<std::size_t>(i)]);
    CHECK(hand.payoffs()[0] == 20000 && hand.payoffs()[1] == -20000);
    CHECK(hand.format_matchstate(1) == "MATCHSTATE:1:0:r20000c///:7d3d|2hAc/5sKs7s/9s/6h");
    CHECK(throws_status(arbor::Status::GameOver, [&] { hand.apply(ARBOR_HOLDEM_CALL); }));
    const std::string line = "MATCHSTATE:0:31:r300c/cr600:Jd4c|/8s2hQd";
    const arbor::HoldemHand seen = arbor::HoldemHand::parse_matchstate(line);
    CHECK(seen.format_matchstate(0) == line && seen.info().min_raise_to == 900);
    CHECK(arbor::holdem_action_format(900) == "r900");
    CHECK(seen.bot_act("min-raise") == 900 && seen.bot_act("all-in") == 20000);
    bool parse_error = false;
    try {
        (void)arbor::HoldemHand::parse_matchstate("MATCHSTATE:0:31:r150c:Jd4c|");
    } catch (const arbor::ParseError &error) {
        parse_error = error.column() == 17;
    }
    CHECK(parse_error);
}

static void test_holdem_bot() {
    static_assert(!std::is_copy_constructible_v<arbor::HoldemBot>);
    static_assert(std::is_nothrow_move_constructible_v<arbor::HoldemBot>);
    const arbor::HoldemHand seen = arbor::HoldemHand::parse_matchstate("MATCHSTATE:1:0::|AsAh");
    arbor::HoldemBot raiser("min-raise", 3);
    const arbor::SearchLimits limits;
    arbor::SearchProgress progress;
    CHECK(raiser.decide(seen, limits, &progress) == 200);
    CHECK(progress.stop_reason == arbor::StopReason::Done && progress.best_move == 200);
    raiser.cancel();
    CHECK(raiser.decide(seen, limits, &progress) == ARBOR_HOLDEM_FOLD);
    CHECK(progress.stop_reason == arbor::StopReason::Cancelled);
    // The same spec and seed decide alike; aces raise.
    arbor::HoldemBot first("equity:samples=300", 9), second("equity:samples=300", 9);
    const arbor::HoldemAction action = first.decide(seen, limits);
    CHECK(action > ARBOR_HOLDEM_CALL && action == second.decide(seen, limits));
    CHECK(throws_status(arbor::Status::ParseError, [] { arbor::HoldemBot bad("genius", 1); }));
    CHECK(throws_status(arbor::Status::IllegalMove, [&] { first.hand_over(seen, 1); }));
}

// ---- Go --------------------------------------------------------------------------------

static void test_go() {
    static_assert(!std::is_copy_constructible_v<arbor::GoGame>);
    static_assert(std::is_nothrow_move_constructible_v<arbor::GoSearch>);
    CHECK(arbor::go_move_parse(9, "A1") == 0 && arbor::go_move_parse(9, "pass") == ARBOR_GO_PASS);
    CHECK(arbor::go_move_format(19, 360) == "T19");
    CHECK(parse_fails([] { (void)arbor::go_move_parse(9, "I5"); }, 1, "GTP has no column 'I' (the letters skip from 'H' to 'J')"));
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { arbor::GoGame bad(4); }));
    CHECK(throws_status(arbor::Status::InvalidArgument, [] { arbor::GoGame bad(9, std::nan("")); }));

    // Captures, the ko refused, two passes, undo, SGF out and in.
    arbor::GoGame game(5, 0.5);
    for (const char *v : {"B2", "C2", "A3", "D3", "B4", "C4", "C3", "B3"}) game.play(std::string_view(v));
    const arbor_go_info info = game.info();
    CHECK(info.captures_white == 1 && info.to_move == ARBOR_GO_BLACK && info.ko == 12);
    CHECK(game.check_move(12) == arbor::GoLegality::Ko && game.check_move(6) == arbor::GoLegality::Occupied);
    CHECK(throws_status(arbor::Status::IllegalMove, [&] { game.play(arbor::GoMove{12}); }));
    CHECK(game.legal_moves().size() == 25 - 7 - 1 + 1 && game.board().size() == 25);
    arbor::GoGame copy = game.clone();
    game.pass();
    game.pass();
    CHECK(game.info().over == 1 && game.legal_moves().empty());
    CHECK(throws_status(arbor::Status::GameOver, [&] { game.pass(); }));
    game.play(arbor::GoMove{0}); // a stone after two passes resumes the game
    CHECK(game.info().over == 0 && game.info().passes == 0);
    game.undo();
    CHECK(game.info().over == 1);
    game.undo();
    CHECK(game.info().over == 0 && copy.info().moves == 8);
    const arbor_go_score score = game.score();
    CHECK(score.komi == 0.5 && score.winner != ARBOR_GO_EMPTY);
    const arbor_go_score final_score = game.final_score(3);
    CHECK(final_score.komi == 0.5 && final_score.black + final_score.white <= 25);
    const std::vector<std::uint8_t> status = game.final_status(3);
    CHECK(status.size() == 25 && status[12] == ARBOR_GO_STATUS_EMPTY && status[6] != ARBOR_GO_STATUS_EMPTY);
    CHECK(game.format().rfind("   A B C D E\n", 0) == 0);
    const std::string sgf = game.sgf_format();
    arbor::GoGame read = arbor::GoGame::parse_sgf(sgf);
    CHECK(read.sgf_format() == sgf && read.format() == game.format());
    try {
        read.sgf_parse("(;SZ[9];B[ee];W[ee])");
        CHECK(false);
    } catch (const arbor::ParseError &e) {
        CHECK(e.line() == 0 && e.detail() == "move 2: the point is occupied");
    }
    CHECK(read.sgf_format() == sgf);

    // The search: two runs of 200 iterations are one of 400; a move keeps the subtree;
    // a deadline; a cancel from another thread.
    arbor::GoGame nine(9, 7.5);
    arbor::GoSearch steps(nine, 20000, 5, arbor::GoPlayer::Mogo);
    arbor::GoSearch once(nine, 20000, 5, arbor::GoPlayer::Mogo);
    arbor::SearchProgress p = steps.run(arbor::SearchLimits::iterations(200));
    p = steps.run(arbor::SearchLimits::iterations(200));
    const arbor::SearchProgress q = once.run(arbor::SearchLimits::iterations(400));
    CHECK(p.iterations == 400 && p.best_move == q.best_move && p.best_visits == q.best_visits);
    CHECK(p.has_move() && nine.check_move(p.best_move) == arbor::GoLegality::Legal);
    steps.play(p.best_move);
    nine.play(p.best_move);
    CHECK(steps.tree_stats().nodes_used > 1);
    arbor::GoGame mirror(9, 0.0);
    steps.game(mirror);
    CHECK(mirror.sgf_format() == nine.sgf_format());
    const arbor::SearchProgress timed =
        steps.run(arbor::SearchLimits::within(std::chrono::milliseconds(20)).clock(steady_us));
    CHECK(timed.stop_reason == arbor::StopReason::Deadline && timed.iterations_this_call > 0);
    const arbor_go_decision decision = steps.decide();
    CHECK(decision.resign == 0 && decision.search_move == timed.best_move);
    CHECK(nine.check_move(decision.move_to_play) == arbor::GoLegality::Legal);
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        once.cancel();
    });
    const arbor::SearchProgress cancelled =
        once.run(arbor::SearchLimits::within(std::chrono::seconds(20)).clock(steady_us));
    canceller.join();
    CHECK(cancelled.stop_reason == arbor::StopReason::Cancelled);
}

int main() {
    // Versions and build information.
    const arbor::Version v = arbor::version();
    CHECK(v.major == ARBOR_VERSION_MAJOR && v.minor == ARBOR_VERSION_MINOR &&
          v.patch == ARBOR_VERSION_PATCH);
    CHECK(arbor::header_version.major == 1);
    CHECK(arbor::abi_version() == ARBOR_ABI_VERSION);
    CHECK(arbor::abi_matches());
    const std::string info = arbor::build_info();
    CHECK(info.rfind("arbor 1.0.0 abi 1 target ", 0) == 0);
    CHECK(info.find(" features ") != std::string::npos);
    CHECK(info.find(" commit ") != std::string::npos);
    CHECK(info.size() < ARBOR_BUILD_INFO_MAX);
    CHECK(arbor::struct_bytes("arbor_breakthrough") == sizeof(arbor_breakthrough));
    CHECK(arbor::struct_bytes("arbor_match3_game") == sizeof(arbor_match3_game));
    CHECK(arbor::struct_bytes("arbor_search_limits") == sizeof(arbor_search_limits));
    CHECK(throws_status(arbor::Status::InvalidArgument,
                        [] { static_cast<void>(arbor::struct_bytes("arbor_nothing")); }));

    // Statuses: text, error_code, exceptions.
    CHECK(arbor::status_message(arbor::Status::Ok) == "ok");
    CHECK(!arbor::status_message(arbor::Status::IllegalMove).empty());
    CHECK(arbor::status_message(static_cast<arbor::Status>(999u)) == "unknown status");
    const std::error_code ec = arbor::Status::InvalidCard;
    CHECK(ec.category().name() == std::string("arbor"));
    CHECK(ec.value() == ARBOR_INVALID_CARD);
    CHECK(ec.message() == arbor::status_message(arbor::Status::InvalidCard));
    CHECK(arbor::to_status(ARBOR_GAME_OVER) == arbor::Status::GameOver);
    CHECK(throws_status(arbor::Status::BufferTooSmall,
                        [] { arbor::check(ARBOR_BUFFER_TOO_SMALL, "test"); }));
    try {
        arbor::check(ARBOR_ILLEGAL_MOVE, "arbor_test_fn");
        CHECK(false);
    } catch (const std::system_error &e) {
        CHECK(std::string(e.what()).rfind("arbor_test_fn: ", 0) == 0);
    }

    // Hands: known ranks.
    const std::uint16_t royal =
        arbor::hand_rank({card(12, 3), card(11, 3), card(10, 3), card(9, 3), card(8, 3)});
    CHECK(royal == 7462);
    CHECK(arbor::hand_category(royal) == arbor::HandCategory::StraightFlush);
    // 7-5-4-3-2 offsuit, the worst hand.
    CHECK(arbor::hand_rank({card(5, 0), card(3, 1), card(2, 2), card(1, 3), card(0, 0)}) == 1);
    CHECK(arbor::hand_category(1) == arbor::HandCategory::HighCard);
    CHECK(arbor::hand_category(0) == arbor::HandCategory::Invalid);
    CHECK(arbor::hand_category(7463) == arbor::HandCategory::Invalid);
    // Equity: AhAd against KcKh on 2s 7d 9c Ks, only the two aces left win (of 44 rivers).
    {
        const std::vector<arbor::Card> turn{card(0, 3), card(5, 1), card(7, 0), card(11, 3)};
        const arbor::Showdowns s =
            arbor::equity_hand_vs_hand({card(12, 2), card(12, 1)}, {card(11, 0), card(11, 2)}, turn);
        CHECK(s.wins == 2 && s.ties == 0 && s.losses == 42);
        arbor::Range hero{}, villain{};
        hero[std::size_t(card(12, 2)) * (card(12, 2) - 1) / 2 + card(12, 1)] = 1.0f;
        villain[std::size_t(card(11, 2)) * (card(11, 2) - 1) / 2 + card(11, 0)] = 1.0f;
        const arbor::WeightedShowdowns w = arbor::equity_range_vs_range(hero, villain, turn);
        CHECK(w.win == 2.0 && w.tie == 0.0 && w.loss == 42.0);
        CHECK(w.equity() == 2.0 / 44.0);
        CHECK(throws_status(arbor::Status::InvalidLength,
                            [&] { (void)arbor::equity_range_vs_range(hero, villain, {}); }));
    }
    // Four aces with a king kicker (seven cards).
    const std::uint16_t quads = arbor::hand_rank(
        {card(12, 0), card(12, 1), card(12, 2), card(12, 3), card(11, 0), card(0, 1), card(1, 2)});
    CHECK(arbor::hand_category(quads) == arbor::HandCategory::FourOfAKind);
    CHECK(throws_status(arbor::Status::InvalidLength, [] {
        (void)arbor::hand_rank({card(0, 0), card(1, 0), card(2, 0), card(3, 0)});
    }));
    CHECK(throws_status(arbor::Status::DuplicateCard, [] {
        (void)arbor::hand_rank({card(0, 0), card(0, 0), card(2, 0), card(3, 0), card(4, 1)});
    }));
    CHECK(throws_status(arbor::Status::InvalidCard, [] {
        (void)arbor::hand_rank({52, card(0, 0), card(2, 0), card(3, 0), card(4, 1)});
    }));
    const std::vector<arbor::Card> hands = {
        card(12, 3), card(11, 3), card(10, 3), card(9, 3), card(8, 3), card(0, 0), card(1, 1),
        card(12, 0), card(12, 1), card(12, 2), card(12, 3), card(11, 0), card(0, 1), card(1, 2)};
    const std::vector<std::uint16_t> ranks = arbor::hand_rank7_batch(hands);
    CHECK(ranks.size() == 2 && ranks[0] == 7462 && ranks[1] == quads);
    CHECK(throws_status(arbor::Status::InvalidLength,
                        [] { (void)arbor::hand_rank7_batch(std::vector<arbor::Card>(8)); }));

    // Cards: text both ways.
    CHECK(arbor::card_parse("As") == card(12, 3));
    CHECK(arbor::card_parse("td") == card(8, 1));
    CHECK(arbor::card_parse("2c") == 0);
    CHECK(arbor::card_format(card(12, 3)) == "As");
    CHECK(arbor::card_format(0) == "2c");
    CHECK(throws_status(arbor::Status::InvalidCard, [] { (void)arbor::card_format(52); }));
    try {
        (void)arbor::card_parse("Ax");
        CHECK(false);
    } catch (const arbor::ParseError &e) {
        CHECK(e.status() == arbor::Status::ParseError);
        CHECK(e.line() == 1 && e.column() == 2); // the suit
        CHECK(!e.detail().empty());
    }
    // Text in has a length: no NUL needed, and what follows the view is not read.
    CHECK(arbor::card_parse(std::string_view("Kh--", 2)) == card(11, 2));
    try {
        (void)arbor::card_parse(std::string_view("As\0", 3)); // an embedded NUL is a character
        CHECK(false);
    } catch (const arbor::ParseError &e) {
        CHECK(e.line() == 1 && e.column() == 3);
    }

    // Buffers: aligned, owned, movable.
    {
        arbor::Buffer buffer(1000, 64);
        CHECK(buffer && buffer.size() == 1000 && buffer.alignment() == 64);
        CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % 64 == 0);
        std::memset(buffer.data(), 0xAB, buffer.size());
        arbor::Buffer moved = std::move(buffer);
        CHECK(!buffer && moved.size() == 1000);
        moved.reset();
        CHECK(!moved);
        CHECK(throws_status(arbor::Status::InvalidArgument, [] { arbor::Buffer bad(16, 3); }));
        // Sized by a `_bytes`-style function (the form every 1.0 area has).
        auto bytes_fn = [](std::uint32_t n, std::size_t *out) noexcept {
            *out = std::size_t{n} * 8;
            return ARBOR_OK;
        };
        arbor::Buffer sized = arbor::Buffer::sized(16, bytes_fn, 12u);
        CHECK(sized.size() == 96 && sized.alignment() == 16);
        auto refusing = [](std::size_t *) noexcept { return ARBOR_INVALID_ARGUMENT; };
        CHECK(throws_status(arbor::Status::InvalidArgument,
                            [&] { (void)arbor::Buffer::sized(16, refusing); }));
    }

    test_breakthrough_positions();
    test_breakthrough_solver();
    test_breakthrough_search();
    test_match3_games();
    test_match3_search();
    test_match3_playtest();
    test_holdem_hands();
    test_holdem_bot();
    test_go();

    std::printf("arbor_test (C++): %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
