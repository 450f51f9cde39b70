// Tests of include/arbor.hpp, the C++17 layer, against the installed library. CI builds it
// with g++ -std=c++17 -Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion.

// The structs can be forward-declared before the header (typedef struct x {…} x;).
struct arbor_breakthrough;
struct arbor_parse_error;

#include "arbor.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
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

    std::printf("arbor_test (C++): %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
