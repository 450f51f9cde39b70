// A C++ program using arbor through arbor.hpp, built by ffi-tests/cmake-consumer. Its
// Breakthrough search is the C++ quick start of docs/bindings.md.
#include <arbor.hpp>

#include <chrono>
#include <cstdio>

// A Breakthrough search spread over frames: each frame gives it 4 ms, then the game moves.
static bool think_and_move(arbor::Breakthrough &position, arbor::BreakthroughSearch &search) {
    const arbor::SearchLimits frame = arbor::SearchLimits::within(std::chrono::milliseconds(4));
    arbor::SearchProgress progress;
    for (int f = 0; f < 5; f++) {               // five frames of the game loop
        progress = search.run(frame);           // returns at the deadline (or on cancel())
    }
    const auto mv = static_cast<arbor::BreakthroughMove>(progress.best_move);
    std::printf("after %llu iterations: %s (%.2f)\n",
                static_cast<unsigned long long>(progress.iterations),
                arbor::breakthrough_move_format(mv).c_str(), progress.best_value);
    position.play(mv);                          // the game's position
    search.play(mv);                            // the search keeps the subtree under mv
    return progress.stop_reason == arbor::StopReason::Deadline;
}

int main() {
    if (!arbor::abi_matches()) {
        std::fprintf(stderr, "arbor ABI %u, this program needs %u\n", arbor::abi_version(),
                     ARBOR_ABI_VERSION);
        return 1;
    }
    const arbor::Version v = arbor::version();
    std::printf("%s\n", arbor::build_info().c_str());
    const std::uint16_t royal = arbor::hand_rank(
        {arbor::card_parse("As"), arbor::card_parse("Ks"), arbor::card_parse("Qs"),
         arbor::card_parse("Js"), arbor::card_parse("Ts")});
    try {
        (void)arbor::card_parse("Zz");
        return 1;
    } catch (const arbor::ParseError &e) {
        std::printf("card_parse(\"Zz\"): %s (column %u: %s)\n", e.what(), e.column(), e.detail().c_str());
    }

    bool searched = false;
    try {
        arbor::Breakthrough position = arbor::Breakthrough::initial(8, 8);
        // About 27 nodes an iteration from the 8x8 start: room for some 20,000 iterations.
        arbor::BreakthroughSearch search(position, 27 * 20000, /*seed=*/1);
        searched = think_and_move(position, search) && think_and_move(position, search) &&
                   position.turn() == 0 && position.legal_moves().size() > 0;
    } catch (const arbor::Error &e) {           // e.status(), e.code()
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
#if defined(ARBOR_CONSUMER_STATIC)
    const char *linkage = "static";
#else
    const char *linkage = "shared";
#endif
    const bool ok = v.major == 1 && royal == 7462 &&
                    arbor::hand_category(royal) == arbor::HandCategory::StraightFlush && searched;
    std::printf("arbor %u.%u.%u (%s): royal flush rank %u, two searched moves: %s\n", v.major,
                v.minor, v.patch, linkage, unsigned{royal}, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
