/*
 * arbor.hpp: a thin, header-only C++17 layer over arbor's C ABI (arbor.h).
 *
 * Hand-written (arbor.h is generated; this file is not). It adds no policy: every function
 * or member calls the C function of its name and converts, and the only state is what a C
 * caller holds anyway (the structs, in value types, and the caller buffers, in owners).
 *
 * Errors: a failing status throws arbor::Error, a std::system_error whose code() is an
 * std::error_code in arbor's category (arbor::error_category()), so both styles work:
 *
 *     try { auto card = arbor::card_parse("As"); }
 *     catch (const arbor::ParseError &e) { e.line(); e.column(); e.detail(); }
 *     catch (const arbor::Error &e) { if (e.status() == arbor::Status::InvalidCard) ... }
 *     std::error_code ec = arbor::Status::InvalidCard;   // compares, prints its message
 *
 * Exceptions were chosen over returned codes because every failure of the calls wrapped
 * here is a programming or input error the caller cannot continue past without handling;
 * code that must not throw (or builds with -fno-exceptions) calls arbor.h directly, which
 * stays fully usable from C++ ([[nodiscard]] statuses, noexcept functions).
 *
 * Text in: std::string_view (UTF-8, not NUL-terminated, as the C ABI takes it). Text out:
 * std::string. Caller buffers: arbor::Buffer (aligned allocation, freed by its destructor),
 * held by the handle owners (BreakthroughSearch, Match3Search, Match3Playtest).
 *
 * Threads: as arbor.h. An owner's cancel() may be called from any thread while its run() or
 * step() runs on another; nothing else on one object overlaps.
 *
 * Coverage: all of ABI 1.0: statuses, versions, build information, cards and hands, the
 * anytime search limits and progress, Breakthrough (positions, moves, the solver, the search
 * handle), Match-3 (levels, games, personas, agents, the search handle, playtests one-shot
 * and stepped).
 */
#ifndef ARBOR_HPP
#define ARBOR_HPP

#if !defined(__cplusplus) || (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "arbor.hpp needs C++17 (arbor.h serves C and older C++)"
#endif
#if !defined(__cpp_exceptions) && !defined(_CPPUNWIND)
#error "arbor.hpp reports errors with exceptions: without them, use arbor.h directly"
#endif

#include "arbor.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace arbor {

/* ---- Statuses and errors ------------------------------------------------------------- */

/// `arbor_status` as a scoped enum; the numbers are the C ones and never change.
enum class Status : std::uint32_t {
    Ok = ARBOR_OK,
    NullPointer = ARBOR_NULL_POINTER,
    BufferTooSmall = ARBOR_BUFFER_TOO_SMALL,
    InvalidLength = ARBOR_INVALID_LENGTH,
    InvalidCard = ARBOR_INVALID_CARD,
    DuplicateCard = ARBOR_DUPLICATE_CARD,
    ParseError = ARBOR_PARSE_ERROR,
    InvalidArgument = ARBOR_INVALID_ARGUMENT,
    IllegalMove = ARBOR_ILLEGAL_MOVE,
    CapacityExhausted = ARBOR_CAPACITY_EXHAUSTED,
    InvalidUtf8 = ARBOR_INVALID_UTF8,
    GameOver = ARBOR_GAME_OVER,
    WrongVersion = ARBOR_WRONG_VERSION,
    NotInitialised = ARBOR_NOT_INITIALISED,
    Misaligned = ARBOR_MISALIGNED,
    Unsupported = ARBOR_UNSUPPORTED,
};

/// The C status as a `Status`.
[[nodiscard]] constexpr Status to_status(arbor_status status) noexcept {
    return static_cast<Status>(status);
}

/// The English text of a status, from `arbor_status_format` ("ok", "unknown status" for a
/// number this library does not know).
[[nodiscard]] inline std::string status_message(Status status) {
    std::array<char, ARBOR_STATUS_TEXT_MAX> buf{};
    std::size_t len = 0;
    if (arbor_status_format(static_cast<std::uint32_t>(status), buf.data(), buf.size(), &len) !=
        ARBOR_OK) {
        return "unknown status"; /* not reached: ARBOR_STATUS_TEXT_MAX always suffices */
    }
    return std::string(buf.data(), len);
}

/// arbor's `std::error_category` ("arbor"): messages from `arbor_status_format`.
class ErrorCategory final : public std::error_category {
public:
    const char *name() const noexcept override { return "arbor"; }
    std::string message(int code) const override {
        return status_message(static_cast<Status>(static_cast<std::uint32_t>(code)));
    }
};

[[nodiscard]] inline const std::error_category &error_category() noexcept {
    static const ErrorCategory category;
    return category;
}

[[nodiscard]] inline std::error_code make_error_code(Status status) noexcept {
    return std::error_code(static_cast<int>(status), error_category());
}

/// A failing status, with the C function that returned it (`what()`: "arbor_x: message").
class Error : public std::system_error {
public:
    Error(Status status, const char *function)
        : std::system_error(make_error_code(status), function), status_(status) {}
    [[nodiscard]] Status status() const noexcept { return status_; }

private:
    Status status_;
};

/// `ARBOR_PARSE_ERROR` with the place and reason arbor reported (`arbor_parse_error`).
class ParseError : public Error {
public:
    ParseError(const char *function, std::uint32_t line, std::uint32_t column, std::string detail)
        : Error(Status::ParseError, function), line_(line), column_(column),
          detail_(std::move(detail)) {}
    /// 1-based line of the problem.
    [[nodiscard]] std::uint32_t line() const noexcept { return line_; }
    /// 1-based byte column, or 0 when the problem concerns the whole line.
    [[nodiscard]] std::uint32_t column() const noexcept { return column_; }
    /// arbor's message, such as "a board has 2 to 8 columns".
    [[nodiscard]] const std::string &detail() const noexcept { return detail_; }

private:
    std::uint32_t line_;
    std::uint32_t column_;
    std::string detail_;
};

/// Throws `Error` for anything but `ARBOR_OK`.
inline void check(arbor_status status, const char *function) {
    if (status != ARBOR_OK) {
        throw Error(to_status(status), function);
    }
}

namespace detail {

/// Text in: the bytes of a string_view as the C ABI takes them.
[[nodiscard]] inline const std::uint8_t *text_data(std::string_view text) noexcept {
    return reinterpret_cast<const std::uint8_t *>(text.data());
}

/// Text out through any `_format`-style call `fn(char *buf, size_t len, size_t *out_len)`:
/// asks for the length, then writes into a string of that size.
template <class Fn> [[nodiscard]] std::string text_out(const char *function, Fn &&fn) {
    std::size_t len = 0;
    const arbor_status query = fn(nullptr, 0, &len);
    if (query != ARBOR_OK && query != ARBOR_BUFFER_TOO_SMALL) {
        throw Error(to_status(query), function);
    }
    std::string text(len + 1, '\0');
    check(fn(text.data(), text.size(), &len), function);
    text.resize(len);
    return text;
}

/// Calls a `_parse` function `fn(ParseErrorT *out_error)` and throws `ParseError` with what
/// arbor wrote (`ParseErrorT` is `arbor_parse_error`; a template so that this compiles
/// before every area has a parse function and the header declares the struct).
template <class ParseErrorT, class Fn> void parse_call(const char *function, Fn &&fn) {
    ParseErrorT error{};
    const arbor_status status = fn(&error);
    if (status == ARBOR_PARSE_ERROR) {
        throw ParseError(function, error.line, error.column,
                         std::string(reinterpret_cast<const char *>(error.message),
                                     error.message_len));
    }
    check(status, function);
}

} // namespace detail

/* ---- Versions ----------------------------------------------------------------------- */

struct Version {
    std::uint32_t major;
    std::uint32_t minor;
    std::uint32_t patch;
};

/// The version of the header this program was compiled with.
inline constexpr Version header_version{ARBOR_VERSION_MAJOR, ARBOR_VERSION_MINOR,
                                        ARBOR_VERSION_PATCH};

/// The version of the library linked (`arbor_version`).
[[nodiscard]] inline Version version() noexcept {
    const std::uint32_t number = arbor_version();
    return Version{number / 10000, number / 100 % 100, number % 100};
}

/// The ABI version of the library linked (`arbor_abi_version`).
[[nodiscard]] inline std::uint32_t abi_version() noexcept { return arbor_abi_version(); }

/// True when the library linked has this header's ABI: check once at start-up.
[[nodiscard]] inline bool abi_matches() noexcept { return arbor_abi_version() == ARBOR_ABI_VERSION; }

/// One line about the library linked (`arbor_build_info`), for bug reports.
[[nodiscard]] inline std::string build_info() {
    return detail::text_out("arbor_build_info", [](char *buf, std::size_t len, std::size_t *out) {
        return arbor_build_info(buf, len, out);
    });
}

/// The size of the struct named `name` ("arbor_breakthrough", …) in the library linked
/// (`arbor_struct_bytes`): compare with `sizeof` to check that header and library agree.
[[nodiscard]] inline std::size_t struct_bytes(std::string_view name) {
    std::size_t bytes = 0;
    check(arbor_struct_bytes(reinterpret_cast<const std::uint8_t *>(name.data()), name.size(),
                             &bytes),
          "arbor_struct_bytes");
    return bytes;
}

/* ---- Caller buffers ----------------------------------------------------------------- */

/// Owns a caller buffer for arbor (a search tree, a solver table, a handle): `bytes` bytes
/// aligned to `align` (an area's `ARBOR_…_ALIGN`), from `::operator new(size, align_val_t)`,
/// freed by the destructor. Move-only. arbor keeps no pointer to it between calls.
class Buffer {
public:
    Buffer() noexcept = default;

    /// Throws `Error(Status::InvalidArgument)` if `align` is not a power of two, and
    /// `std::bad_alloc` when memory runs out.
    Buffer(std::size_t bytes, std::size_t align) : bytes_(bytes), align_(align) {
        if (align == 0 || (align & (align - 1)) != 0) {
            throw Error(Status::InvalidArgument, "arbor::Buffer");
        }
        data_ = ::operator new(bytes, std::align_val_t{align});
    }

    /// A buffer of the size an area's `arbor_<area>_bytes(args..., size_t *out_bytes)`
    /// reports, aligned to `align`: `Buffer::sized(ARBOR_X_ALIGN, arbor_x_bytes, n)`.
    template <class BytesFn, class... Args>
    [[nodiscard]] static Buffer sized(std::size_t align, BytesFn &&bytes_fn, Args &&...args) {
        std::size_t bytes = 0;
        check(bytes_fn(std::forward<Args>(args)..., &bytes), "arbor_…_bytes");
        return Buffer(bytes, align);
    }

    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
    Buffer(Buffer &&other) noexcept
        : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)),
          align_(std::exchange(other.align_, 1)) {}
    Buffer &operator=(Buffer &&other) noexcept {
        if (this != &other) {
            reset();
            data_ = std::exchange(other.data_, nullptr);
            bytes_ = std::exchange(other.bytes_, 0);
            align_ = std::exchange(other.align_, 1);
        }
        return *this;
    }
    ~Buffer() { reset(); }

    /// Frees the memory (the buffer is then empty).
    void reset() noexcept {
        if (data_ != nullptr) {
            ::operator delete(data_, std::align_val_t{align_});
            data_ = nullptr;
            bytes_ = 0;
            align_ = 1;
        }
    }

    [[nodiscard]] void *data() noexcept { return data_; }
    [[nodiscard]] const void *data() const noexcept { return data_; }
    [[nodiscard]] std::size_t size() const noexcept { return bytes_; }
    [[nodiscard]] std::size_t alignment() const noexcept { return align_; }
    explicit operator bool() const noexcept { return data_ != nullptr; }

private:
    void *data_ = nullptr;
    std::size_t bytes_ = 0;
    std::size_t align_ = 1;
};

/* ---- Cards and hands (final at 1.0) ------------------------------------------------- */

/// A card byte: `rank * 4 + suit`, rank 0 (two) ..= 12 (ace), suit 0..=3 (c, d, h, s).
using Card = std::uint8_t;

/// `arbor_hand_category`: what a rank means. `Invalid` for a rank outside 1..=7462.
enum class HandCategory : std::uint8_t {
    HighCard = 0,
    OnePair = 1,
    TwoPair = 2,
    ThreeOfAKind = 3,
    Straight = 4,
    Flush = 5,
    FullHouse = 6,
    FourOfAKind = 7,
    StraightFlush = 8,
    Invalid = 255,
};

/// The rank, 1 (worst) ..= 7462 (royal flush), of the best five of `count` (5, 6 or 7) cards.
[[nodiscard]] inline std::uint16_t hand_rank(const Card *cards, std::size_t count) {
    std::uint16_t rank = 0;
    check(arbor_hand_rank(cards, count, &rank), "arbor_hand_rank");
    return rank;
}

[[nodiscard]] inline std::uint16_t hand_rank(std::initializer_list<Card> cards) {
    return hand_rank(cards.begin(), cards.size());
}

/// Ranks `count` seven-card hands (`cards` holds `7 * count` bytes) into `out_ranks`.
inline void hand_rank7_batch(const Card *cards, std::size_t count, std::uint16_t *out_ranks) {
    check(arbor_hand_rank7_batch(cards, count, out_ranks), "arbor_hand_rank7_batch");
}

/// Ranks the seven-card hands of `cards` (a multiple of 7 bytes, else `InvalidLength`).
[[nodiscard]] inline std::vector<std::uint16_t> hand_rank7_batch(const std::vector<Card> &cards) {
    if (cards.size() % 7 != 0) {
        throw Error(Status::InvalidLength, "arbor_hand_rank7_batch");
    }
    std::vector<std::uint16_t> ranks(cards.size() / 7);
    hand_rank7_batch(cards.data(), ranks.size(), ranks.data());
    return ranks;
}

/// `arbor_equity_hand_vs_hand`: boards won, tied and lost by the first hand.
struct Showdowns {
    std::uint64_t wins = 0, ties = 0, losses = 0;
    [[nodiscard]] double equity() const noexcept {
        const double total = double(wins + ties + losses);
        return total > 0 ? (double(wins) + double(ties) / 2) / total : 0;
    }
};

/// Exact showdowns of `hero` against `villain` over every completion of `board` (0, 3, 4 or
/// 5 cards).
[[nodiscard]] inline Showdowns equity_hand_vs_hand(std::array<Card, 2> hero, std::array<Card, 2> villain,
                                                   const std::vector<Card> &board = {}) {
    std::vector<Card> cards{hero[0], hero[1], villain[0], villain[1]};
    cards.insert(cards.end(), board.begin(), board.end());
    Showdowns out;
    check(arbor_equity_hand_vs_hand(cards.data(), cards.size(), &out.wins, &out.ties, &out.losses),
          "arbor_equity_hand_vs_hand");
    return out;
}

/// `arbor_equity_hand_vs_range` and `arbor_equity_range_vs_range`: weighted showdowns.
struct WeightedShowdowns {
    double win = 0, tie = 0, loss = 0;
    [[nodiscard]] double equity() const noexcept {
        const double total = win + tie + loss;
        return total > 0 ? (win + tie / 2) / total : 0;
    }
};

/// A range: one weight per two-card combo (`ARBOR_EQUITY_COMBOS`, see there for the order).
using Range = std::array<float, ARBOR_EQUITY_COMBOS>;

/// Exact equity of `hero` against the range `villain` on a board of 3, 4 or 5 cards.
[[nodiscard]] inline WeightedShowdowns equity_hand_vs_range(std::array<Card, 2> hero, const Range &villain,
                                                            const std::vector<Card> &board) {
    std::vector<Card> cards{hero[0], hero[1]};
    cards.insert(cards.end(), board.begin(), board.end());
    WeightedShowdowns out;
    check(arbor_equity_hand_vs_range(cards.data(), cards.size(), villain.data(), villain.size(), &out.win,
                                     &out.tie, &out.loss),
          "arbor_equity_hand_vs_range");
    return out;
}

/// Exact equity of the range `hero` against the range `villain` on a board of 3, 4 or 5 cards.
[[nodiscard]] inline WeightedShowdowns equity_range_vs_range(const Range &hero, const Range &villain,
                                                             const std::vector<Card> &board) {
    WeightedShowdowns out;
    check(arbor_equity_range_vs_range(hero.data(), hero.size(), villain.data(), villain.size(), board.data(),
                                      board.size(), &out.win, &out.tie, &out.loss),
          "arbor_equity_range_vs_range");
    return out;
}

[[nodiscard]] inline HandCategory hand_category(std::uint16_t rank) noexcept {
    return static_cast<HandCategory>(arbor_hand_category(rank));
}

/// Parses a card such as "As", "Td", "2c" (any letter case). Throws `ParseError` (line 1;
/// column 1 for the rank, 2 for the suit, 3 for anything after).
[[nodiscard]] inline Card card_parse(std::string_view text) {
    Card card = 0;
    detail::parse_call<arbor_parse_error>("arbor_card_parse", [&](arbor_parse_error *error) {
        return arbor_card_parse(detail::text_data(text), text.size(), &card, error);
    });
    return card;
}

/// The text of a card byte ("As"). Throws `Error(Status::InvalidCard)` above 51.
[[nodiscard]] inline std::string card_format(Card card) {
    return detail::text_out("arbor_card_format",
                            [&](char *buf, std::size_t len, std::size_t *out_len) {
                                return arbor_card_format(card, buf, len, out_len);
                            });
}

/* ---- Hold'em hands: rules, the ACPC deal, MATCHSTATE text (src/ffi/holdem_hand.rs) ---- */

/// An action code: `ARBOR_HOLDEM_FOLD`, `ARBOR_HOLDEM_CALL`, or a raise to that many chips.
using HoldemAction = std::uint32_t;

/// The ACPC reference dealer's card stream of a seeded match: a value type holding the
/// 2,520-byte `arbor_holdem_dealer` (copy it, save `raw()` to resume a match).
class HoldemDealer {
public:
    explicit HoldemDealer(std::uint32_t seed) {
        check(arbor_holdem_dealer_init(seed, &state_), "arbor_holdem_dealer_init");
    }

    /// The next hand's nine cards: position 0's two hole cards, position 1's two, the board.
    [[nodiscard]] std::array<Card, ARBOR_HOLDEM_DEAL_CARDS> next() {
        std::array<Card, ARBOR_HOLDEM_DEAL_CARDS> cards{};
        check(arbor_holdem_dealer_next(&state_, cards.data(), cards.size()), "arbor_holdem_dealer_next");
        return cards;
    }

    [[nodiscard]] std::uint64_t hands_dealt() const noexcept { return state_.hands_dealt; }
    [[nodiscard]] const arbor_holdem_dealer &raw() const noexcept { return state_; }

private:
    arbor_holdem_dealer state_{};
};

/// The ACPC text of an action: "f", "c", "r300".
[[nodiscard]] inline std::string holdem_action_format(HoldemAction action) {
    return detail::text_out("arbor_holdem_action_format",
                            [&](char *buf, std::size_t len, std::size_t *out_len) {
                                return arbor_holdem_action_format(action, buf, len, out_len);
                            });
}

/// One hand of heads-up no-limit Hold'em: a value type holding the 1,072-byte
/// `arbor_holdem_hand` (copy it, save `raw()`). Every call replays it through the rules, so a
/// struct from another version or changed by hand is refused (`Error`), never misread; a call
/// that throws leaves it unchanged.
class HoldemHand {
public:
    /// A new hand, blinds posted (position 0 the big blind); the ACPC game by default.
    [[nodiscard]] static HoldemHand start(std::uint32_t stack0 = ARBOR_HOLDEM_ACPC_STACK,
                                          std::uint32_t stack1 = ARBOR_HOLDEM_ACPC_STACK,
                                          std::uint32_t big_blind = ARBOR_HOLDEM_ACPC_BIG_BLIND,
                                          std::uint32_t small_blind = ARBOR_HOLDEM_ACPC_SMALL_BLIND) {
        HoldemHand hand;
        check(arbor_holdem_hand_init(stack0, stack1, big_blind, small_blind, &hand.state_),
              "arbor_holdem_hand_init");
        return hand;
    }

    /// Parses a `MATCHSTATE:` line of a hand played with the stacks and blinds of `rules`.
    /// Throws `ParseError`.
    [[nodiscard]] static HoldemHand parse_matchstate(std::string_view text,
                                                     const HoldemHand &rules = start()) {
        HoldemHand hand;
        detail::parse_call<arbor_parse_error>(
            "arbor_holdem_matchstate_parse", [&](arbor_parse_error *error) {
                return arbor_holdem_matchstate_parse(detail::text_data(text), text.size(),
                                                     &rules.state_, &hand.state_, error);
            });
        return hand;
    }

    /// A struct filled by arbor earlier (saved, or from C code); checked by each call.
    [[nodiscard]] static HoldemHand from_raw(const arbor_holdem_hand &state) noexcept {
        HoldemHand hand;
        hand.state_ = state;
        return hand;
    }

    void deal_hole(std::uint32_t position, Card first, Card second) {
        const Card cards[2] = {first, second};
        check(arbor_holdem_hand_deal_hole(&state_, position, cards, 2), "arbor_holdem_hand_deal_hole");
    }

    void deal_board(Card card) { check(arbor_holdem_hand_deal_board(&state_, card), "arbor_holdem_hand_deal_board"); }

    /// Plays an action for the position to act. Throws `Error` (`IllegalMove`, `GameOver`, …).
    void apply(HoldemAction action) { check(arbor_holdem_hand_apply(&state_, action), "arbor_holdem_hand_apply"); }

    [[nodiscard]] arbor_holdem_info info() const {
        arbor_holdem_info info{};
        check(arbor_holdem_hand_info(&state_, &info), "arbor_holdem_hand_info");
        return info;
    }

    /// Chips won by position 0 and 1 once the hand is over.
    [[nodiscard]] std::array<std::int32_t, 2> payoffs() const {
        std::array<std::int32_t, 2> payoffs{};
        check(arbor_holdem_hand_payoffs(&state_, payoffs.data(), payoffs.size()), "arbor_holdem_hand_payoffs");
        return payoffs;
    }

    /// The `MATCHSTATE:` line a dealer sends `position`.
    [[nodiscard]] std::string format_matchstate(std::uint32_t position) const {
        return detail::text_out("arbor_holdem_matchstate_format",
                                [&](char *buf, std::size_t len, std::size_t *out_len) {
                                    return arbor_holdem_matchstate_format(&state_, position, buf, len, out_len);
                                });
    }

    /// The action of the bot `spec` (`call`, `min-raise`, `all-in`, `random[:seed=S]`,
    /// `equity[:samples=N,seed=S]`) for the position to act. Throws `ParseError` for a bad spec.
    [[nodiscard]] HoldemAction bot_act(std::string_view spec) const {
        HoldemAction action = 0;
        detail::parse_call<arbor_parse_error>("arbor_holdem_bot_act", [&](arbor_parse_error *error) {
            return arbor_holdem_bot_act(detail::text_data(spec), spec.size(), &state_, &action, error);
        });
        return action;
    }

    [[nodiscard]] const arbor_holdem_hand &raw() const noexcept { return state_; }

private:
    HoldemHand() = default;
    arbor_holdem_hand state_{};
};

/* ---- Anytime search: limits and progress (src/ffi/search.rs, final at 1.0) ------------ */

/// Why a `…_search_run` call (or a playtest step) stopped: `ARBOR_STOP_*`. `None` is what
/// `best()` says before any run on the current root.
enum class StopReason : std::uint32_t {
    None = 0,
    Iterations = ARBOR_STOP_ITERATIONS,
    Deadline = ARBOR_STOP_DEADLINE,
    Cancelled = ARBOR_STOP_CANCELLED,
    Done = ARBOR_STOP_DONE,
    Step = ARBOR_STOP_STEP,
};

/// `arbor_search_limits`: the stop conditions of one run, filled by
/// `arbor_search_limits_init`. Reusable for every run.
class SearchLimits {
public:
    /// At most `max_iterations` iterations per run (0: no iteration limit; the run then
    /// needs a deadline or a cancel to end).
    explicit SearchLimits(std::uint32_t max_iterations = 0) {
        check(arbor_search_limits_init(max_iterations, &limits_), "arbor_search_limits_init");
    }

    /// A run of at most `n` iterations.
    [[nodiscard]] static SearchLimits iterations(std::uint32_t n) { return SearchLimits(n); }

    /// A run of at most `budget` (a frame's share, say), measured by the library's monotonic
    /// clock, or by the clock given with `clock()` (a `no_std` build needs one).
    [[nodiscard]] static SearchLimits within(std::chrono::microseconds budget,
                                             std::uint32_t max_iterations = 0) {
        SearchLimits limits(max_iterations);
        limits.deadline(budget);
        return limits;
    }

    /// Sets the deadline: microseconds from the start of the run (0: none). Negative is 0.
    SearchLimits &deadline(std::chrono::microseconds budget) noexcept {
        const auto count = budget.count();
        limits_.deadline_us = count > 0 ? static_cast<std::uint64_t>(count) : 0;
        return *this;
    }

    /// Measures the deadline with the caller's monotonic microsecond clock `now_us(ctx)`
    /// (called on the searching thread, about once an iteration); nullptr: the library's.
    SearchLimits &clock(arbor_clock_fn now_us, void *ctx = nullptr) noexcept {
        limits_.now_us = now_us;
        limits_.ctx = ctx;
        return *this;
    }

    SearchLimits &max_iterations(std::uint32_t n) noexcept {
        limits_.max_iterations = n;
        return *this;
    }

    [[nodiscard]] const arbor_search_limits &raw() const noexcept { return limits_; }
    [[nodiscard]] arbor_search_limits &raw() noexcept { return limits_; }

private:
    arbor_search_limits limits_{};
};

/// `arbor_search_progress` with its stop reason as a `StopReason`.
struct SearchProgress {
    /// Iterations on this root so far (every run since the last `_init` or `_play`).
    std::uint64_t iterations = 0;
    /// Iterations of this run.
    std::uint32_t iterations_this_call = 0;
    StopReason stop_reason = StopReason::None;
    /// The move the search would play now, or `ARBOR_SEARCH_NO_MOVE` (see `has_move()`).
    std::uint32_t best_move = ARBOR_SEARCH_NO_MOVE;
    std::uint32_t best_visits = 0;
    /// Mean reward of `best_move` for the side to move, in [0, 1].
    double best_value = 0.0;
    std::uint64_t root_visits = 0;

    [[nodiscard]] bool has_move() const noexcept { return best_move != ARBOR_SEARCH_NO_MOVE; }

    [[nodiscard]] static SearchProgress from(const arbor_search_progress &p) noexcept {
        SearchProgress out;
        out.iterations = p.iterations;
        out.iterations_this_call = p.iterations_this_call;
        out.stop_reason = static_cast<StopReason>(p.stop_reason);
        out.best_move = p.best_move;
        out.best_visits = p.best_visits;
        out.best_value = p.best_value;
        out.root_visits = p.root_visits;
        return out;
    }
};

/* ---- Breakthrough (final at 1.0) ----------------------------------------------------- */

/// A Breakthrough move as `arbor_breakthrough_legal_moves` packs it (from, to, capture bit).
using BreakthroughMove = std::uint16_t;

/// `arbor_breakthrough_status`.
enum class BreakthroughStatus : std::uint32_t {
    Ongoing = ARBOR_BREAKTHROUGH_ONGOING,
    WhiteWon = ARBOR_BREAKTHROUGH_WHITE_WON,
    BlackWon = ARBOR_BREAKTHROUGH_BLACK_WON,
};

/// Parses a move, "a2-a3" or "b4xa3" (text only: legality is `Breakthrough::play`'s).
/// Throws `ParseError` (line 1, the column of the first wrong byte).
[[nodiscard]] inline BreakthroughMove breakthrough_move_parse(std::string_view text) {
    BreakthroughMove mv = 0;
    detail::parse_call<arbor_parse_error>(
        "arbor_breakthrough_move_parse", [&](arbor_parse_error *error) {
            return arbor_breakthrough_move_parse(detail::text_data(text), text.size(), &mv, error);
        });
    return mv;
}

/// The text of a move ("b4xa3"). Throws `Error(Status::InvalidArgument)` for bits 13-15.
[[nodiscard]] inline std::string breakthrough_move_format(BreakthroughMove mv) {
    return detail::text_out("arbor_breakthrough_move_format",
                            [&](char *buf, std::size_t len, std::size_t *out_len) {
                                return arbor_breakthrough_move_format(mv, buf, len, out_len);
                            });
}

/// A Breakthrough position: a value type holding the 40-byte `arbor_breakthrough` (copy,
/// compare, save `raw()` to disk). Every call checks the struct, so one from another
/// version or changed by hand is refused (`Error`), never misread.
class Breakthrough {
public:
    /// The start position of a `columns` x `rows` board (2..=8 x 4..=8), White to move.
    [[nodiscard]] static Breakthrough initial(std::uint32_t columns = 8, std::uint32_t rows = 8) {
        Breakthrough position;
        check(arbor_breakthrough_init(columns, rows, &position.state_), "arbor_breakthrough_init");
        return position;
    }

    /// Parses "BBBBB/BBBBB/...../WWWWW/WWWWW w" (ranks from the top, then the side to
    /// move). Throws `ParseError`.
    [[nodiscard]] static Breakthrough parse(std::string_view text) {
        Breakthrough position;
        detail::parse_call<arbor_parse_error>(
            "arbor_breakthrough_parse", [&](arbor_parse_error *error) {
                return arbor_breakthrough_parse(detail::text_data(text), text.size(),
                                                &position.state_, error);
            });
        return position;
    }

    /// A struct filled by arbor earlier (saved, or from C code); checked by each call.
    [[nodiscard]] static Breakthrough from_raw(const arbor_breakthrough &state) noexcept {
        Breakthrough position;
        position.state_ = state;
        return position;
    }

    /// The text `parse` reads.
    [[nodiscard]] std::string format() const {
        return detail::text_out("arbor_breakthrough_format",
                                [&](char *buf, std::size_t len, std::size_t *out_len) {
                                    return arbor_breakthrough_format(&state_, buf, len, out_len);
                                });
    }

    /// The legal moves (none when the game is over): straight moves first, then diagonals
    /// towards file a, then towards file h, each by ascending to-square.
    [[nodiscard]] std::vector<BreakthroughMove> legal_moves() const {
        std::array<BreakthroughMove, ARBOR_BREAKTHROUGH_MAX_MOVES> moves{};
        std::size_t count = 0;
        check(arbor_breakthrough_legal_moves(&state_, moves.data(), moves.size(), &count),
              "arbor_breakthrough_legal_moves");
        return std::vector<BreakthroughMove>(moves.begin(),
                                             moves.begin() + static_cast<std::ptrdiff_t>(count));
    }

    /// Plays `mv` in place. Throws `Error` (`IllegalMove`, `GameOver`, …) and is then
    /// unchanged.
    void play(BreakthroughMove mv) { check(arbor_breakthrough_play(&state_, mv), "arbor_breakthrough_play"); }

    [[nodiscard]] BreakthroughStatus status() const {
        std::uint32_t status = 0;
        check(arbor_breakthrough_status(&state_, &status), "arbor_breakthrough_status");
        return static_cast<BreakthroughStatus>(status);
    }

    [[nodiscard]] bool over() const { return status() != BreakthroughStatus::Ongoing; }

    /// Zobrist hash, recomputed from the pawns (equal positions, equal hashes, everywhere).
    [[nodiscard]] std::uint64_t hash() const {
        std::uint64_t hash = 0;
        check(arbor_breakthrough_hash(&state_, &hash), "arbor_breakthrough_hash");
        return hash;
    }

    [[nodiscard]] std::uint32_t columns() const noexcept { return state_.columns; }
    [[nodiscard]] std::uint32_t rows() const noexcept { return state_.rows; }
    /// 0: White to move, 1: Black.
    [[nodiscard]] std::uint32_t turn() const noexcept { return state_.turn; }

    [[nodiscard]] const arbor_breakthrough &raw() const noexcept { return state_; }

    /// Same board, pawns and side to move.
    friend bool operator==(const Breakthrough &a, const Breakthrough &b) noexcept {
        return a.state_.white == b.state_.white && a.state_.black == b.state_.black &&
               a.state_.columns == b.state_.columns && a.state_.rows == b.state_.rows &&
               a.state_.turn == b.state_.turn;
    }
    friend bool operator!=(const Breakthrough &a, const Breakthrough &b) noexcept { return !(a == b); }

private:
    Breakthrough() noexcept = default;
    arbor_breakthrough state_{};
};

/* ---- Breakthrough solver -------------------------------------------------------------- */

/// `outcome` of a solve (`ARBOR_BREAKTHROUGH_SOLVE_*`).
enum class SolveOutcome : std::uint32_t {
    BudgetSpent = ARBOR_BREAKTHROUGH_SOLVE_BUDGET_SPENT,
    Win = ARBOR_BREAKTHROUGH_SOLVE_WIN,
    Loss = ARBOR_BREAKTHROUGH_SOLVE_LOSS,
    TableFull = ARBOR_BREAKTHROUGH_SOLVE_TABLE_FULL,
};

/// `arbor_breakthrough_solve_result` with its outcome as a `SolveOutcome`.
struct SolveResult {
    SolveOutcome outcome = SolveOutcome::BudgetSpent;
    /// A winning move for `Win`, else `ARBOR_BREAKTHROUGH_NO_MOVE`.
    BreakthroughMove best_move = ARBOR_BREAKTHROUGH_NO_MOVE;
    std::uint64_t expanded = 0;
    std::uint64_t touched = 0;
    std::uint64_t peak_entries = 0;
    std::uint64_t table_entries = 0;

    /// Proved a win or a loss for the side to move.
    [[nodiscard]] bool decided() const noexcept {
        return outcome == SolveOutcome::Win || outcome == SolveOutcome::Loss;
    }
};

/// The solver's transposition table of `entries` entries (a power of two, at least 4; 2^20,
/// 16 MiB, solve the 4x5 start): a `Buffer` sized by `arbor_breakthrough_solve_bytes` and
/// aligned to `ARBOR_BREAKTHROUGH_SOLVE_ALIGN`. Scratch: reuse it for every solve.
[[nodiscard]] inline Buffer breakthrough_solve_table(std::size_t entries) {
    return Buffer::sized(ARBOR_BREAKTHROUGH_SOLVE_ALIGN, arbor_breakthrough_solve_bytes, entries);
}

/// Solves the position `text` with df-pn in `table`, for at most `max_expansions`
/// expansions; `options` 0 or `ARBOR_BREAKTHROUGH_SOLVE_PATTERNS`. Throws `ParseError` for
/// text that is not a position. Recurses about 1 KiB of stack per ply (see arbor.h).
[[nodiscard]] inline SolveResult breakthrough_solve(std::string_view text, Buffer &table,
                                                    std::uint64_t max_expansions = UINT64_MAX,
                                                    std::uint32_t options = 0) {
    arbor_breakthrough_solve_result r{};
    detail::parse_call<arbor_parse_error>("arbor_breakthrough_solve", [&](arbor_parse_error *error) {
        return arbor_breakthrough_solve(detail::text_data(text), text.size(), table.data(),
                                        table.size(), max_expansions, options, &r, error);
    });
    SolveResult result;
    result.outcome = static_cast<SolveOutcome>(r.outcome);
    result.best_move = r.best_move;
    result.expanded = r.expanded;
    result.touched = r.touched;
    result.peak_entries = r.peak_entries;
    result.table_entries = r.table_entries;
    return result;
}

[[nodiscard]] inline SolveResult breakthrough_solve(const Breakthrough &position, Buffer &table,
                                                    std::uint64_t max_expansions = UINT64_MAX,
                                                    std::uint32_t options = 0) {
    return breakthrough_solve(position.format(), table, max_expansions, options);
}

/* ---- Breakthrough search handle ------------------------------------------------------- */

/// `arbor_breakthrough_search_config.policy`.
enum class SearchPolicy : std::uint32_t {
    Uct = ARBOR_BREAKTHROUGH_SEARCH_UCT,
    Rave = ARBOR_BREAKTHROUGH_SEARCH_RAVE,
    Mogo = ARBOR_BREAKTHROUGH_SEARCH_MOGO,
};

/// The default settings of `policy` (solver on, expansion at first visit, no playout
/// cutoff); change the fields, then pass it to `BreakthroughSearch`.
[[nodiscard]] inline arbor_breakthrough_search_config
breakthrough_search_default_config(SearchPolicy policy = SearchPolicy::Uct) {
    arbor_breakthrough_search_config config{};
    check(arbor_breakthrough_search_default_config(static_cast<std::uint32_t>(policy), &config),
          "arbor_breakthrough_search_default_config");
    return config;
}

/// The anytime, cancellable MCTS of `arbor_breakthrough_search_*`: owns the handle buffer
/// (an aligned `Buffer` of `arbor_breakthrough_search_bytes`, prepared by `_init`, freed by
/// the destructor). Move-only.
///
/// Threads: `cancel()` may be called from any thread while `run()` is in progress on
/// another (it only sets the handle's atomic flag; a cancel made between runs stops the
/// next run at once). Every other member must not overlap another call on the same
/// object, and `cancel()` must not overlap the constructor, a move or the destructor: keep
/// the object alive until the thread that may cancel is done with it.
class BreakthroughSearch {
public:
    /// A search of `position` whose tree holds `capacity_nodes` nodes per thread for runs of
    /// up to `threads` threads (about 27 nodes an iteration from the 8x8 start rarely
    /// fills; `nodes_for_iterations` is the bound that never does), all randomness from
    /// `seed`. Throws `Error` (`GameOver` for a won position, `InvalidArgument`, …).
    BreakthroughSearch(const Breakthrough &position, std::uint32_t capacity_nodes,
                       std::uint64_t seed,
                       const arbor_breakthrough_search_config &config =
                           breakthrough_search_default_config(),
                       std::uint32_t threads = 1)
        : buffer_(Buffer::sized(ARBOR_BREAKTHROUGH_SEARCH_ALIGN, arbor_breakthrough_search_bytes,
                                capacity_nodes, threads)) {
        check(arbor_breakthrough_search_init(buffer_.data(), buffer_.size(), &config,
                                             &position.raw(), seed),
              "arbor_breakthrough_search_init");
    }

    BreakthroughSearch(BreakthroughSearch &&) noexcept = default;
    BreakthroughSearch &operator=(BreakthroughSearch &&) noexcept = default;

    /// Grows the tree until `limits` (iterations, deadline) or a cancel stops it, on
    /// `threads` threads (1 to `max_threads()`; more than 1 restarts the tree, see arbor.h).
    /// On one thread, k runs of n iterations equal one run of k·n.
    SearchProgress run(const SearchLimits &limits, std::uint32_t threads = 1) {
        arbor_search_progress p{};
        check(arbor_breakthrough_search_run(buffer_.data(), buffer_.size(), &limits.raw(), threads, &p),
              "arbor_breakthrough_search_run");
        return SearchProgress::from(p);
    }

    /// Asks a run in progress (on any thread) to stop within one iteration, with
    /// `StopReason::Cancelled`; without one, the next run stops at once. Safe to call from
    /// another thread (see the class comment). Throws only for a moved-from object.
    void cancel() {
        check(arbor_breakthrough_search_cancel(buffer_.data(), buffer_.size()),
              "arbor_breakthrough_search_cancel");
    }

    /// Advances the root by `mv` (either side's move), keeping its subtree.
    void play(BreakthroughMove mv) {
        check(arbor_breakthrough_search_play(buffer_.data(), buffer_.size(), mv),
              "arbor_breakthrough_search_play");
    }

    /// The progress of the last run on this root (the move to play now), without searching.
    [[nodiscard]] SearchProgress best() {
        arbor_search_progress p{};
        check(arbor_breakthrough_search_best(buffer_.data(), buffer_.size(), &p),
              "arbor_breakthrough_search_best");
        return SearchProgress::from(p);
    }

    /// Nodes used and available, whether a run filled them, the solver's verdict.
    [[nodiscard]] arbor_breakthrough_search_stats tree_stats() {
        arbor_breakthrough_search_stats stats{};
        check(arbor_breakthrough_search_tree_stats(buffer_.data(), buffer_.size(), &stats),
              "arbor_breakthrough_search_tree_stats");
        return stats;
    }

    /// The most threads a run accepts in this build (1 without `std`).
    [[nodiscard]] static std::uint32_t max_threads() noexcept {
        return arbor_breakthrough_search_max_threads();
    }

    /// Nodes that `iterations` iterations from a fresh root at `position` never exceed.
    [[nodiscard]] static std::uint32_t nodes_for_iterations(const Breakthrough &position,
                                                            std::uint32_t iterations) {
        std::uint32_t nodes = 0;
        check(arbor_breakthrough_search_nodes_for_iterations(&position.raw(), iterations, &nodes),
              "arbor_breakthrough_search_nodes_for_iterations");
        return nodes;
    }

    [[nodiscard]] const Buffer &buffer() const noexcept { return buffer_; }

private:
    Buffer buffer_;
};

/* ---- Match-3 (final at 1.0) ---------------------------------------------------------- */

/// A Match-3 move code (a swap of two neighbours), as `arbor_match3_legal_moves` lists them.
using Match3Move = std::uint8_t;

/// What an agent's search rewards: 0 MaxS, 1 MinS, 2 MaxM, 3 MinM.
enum class Match3Goal : std::uint32_t { MaxS = 0, MinS = 1, MaxM = 2, MinM = 3 };

/// Parses a move such as "d4-d5" (shape only). Throws `ParseError`.
[[nodiscard]] inline Match3Move match3_move_parse(std::string_view text) {
    Match3Move code = 0;
    detail::parse_call<arbor_parse_error>("arbor_match3_move_parse", [&](arbor_parse_error *error) {
        return arbor_match3_move_parse(detail::text_data(text), text.size(), &code, error);
    });
    return code;
}

/// The text of a move code ("d4-d5"). Throws `Error(Status::InvalidArgument)` for a code
/// no move has.
[[nodiscard]] inline std::string match3_move_format(Match3Move code) {
    return detail::text_out("arbor_match3_move_format",
                            [&](char *buf, std::size_t len, std::size_t *out_len) {
                                return arbor_match3_move_format(code, buf, len, out_len);
                            });
}

/// Compiles a persona formula ("add(div(W, N), mul(0.5, sqrt(div(NP, N))))") into its
/// binary form. Throws `ParseError`, or `Error(Status::InvalidLength)` past 64 terms.
[[nodiscard]] inline std::vector<std::uint8_t> match3_formula_parse(std::string_view text) {
    std::array<std::uint8_t, ARBOR_MATCH3_FORMULA_MAX_BYTES> out{};
    std::size_t bytes = 0;
    detail::parse_call<arbor_parse_error>("arbor_match3_formula_parse", [&](arbor_parse_error *error) {
        return arbor_match3_formula_parse(detail::text_data(text), text.size(), out.data(),
                                          out.size(), &bytes, error);
    });
    return std::vector<std::uint8_t>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(bytes));
}

/// A Match-3 level: a value type holding `arbor_match3_level` (1,708 bytes; its image is
/// private). Checked by every call that takes it.
class Match3Level {
public:
    /// Parses a level file (docs/match3.md). Throws `ParseError` (line 0 when no single
    /// line is at fault, column 0 when the whole line is).
    [[nodiscard]] static Match3Level parse(std::string_view text) {
        Match3Level level;
        detail::parse_call<arbor_parse_error>("arbor_match3_level_parse", [&](arbor_parse_error *error) {
            return arbor_match3_level_parse(detail::text_data(text), text.size(), &level.level_, error);
        });
        return level;
    }

    /// Bundled preset 0, 1 or 2 (board1 … board3).
    [[nodiscard]] static Match3Level preset(std::uint32_t index) {
        Match3Level level;
        check(arbor_match3_level_preset(index, &level.level_), "arbor_match3_level_preset");
        return level;
    }

    [[nodiscard]] static Match3Level from_raw(const arbor_match3_level &level) noexcept {
        Match3Level out;
        out.level_ = level;
        return out;
    }

    /// Bytes of a tree buffer that `iterations` iterations of a one-shot agent never fill.
    [[nodiscard]] std::size_t tree_bytes(std::uint32_t iterations) const {
        std::size_t bytes = 0;
        check(arbor_match3_tree_bytes(&level_, iterations, &bytes), "arbor_match3_tree_bytes");
        return bytes;
    }

    /// A tree buffer for `arbor_match3_agent_move` (`Match3Game::agent_move`), aligned.
    [[nodiscard]] Buffer tree_buffer(std::uint32_t iterations) const {
        return Buffer(tree_bytes(iterations), ARBOR_MATCH3_TREE_ALIGN);
    }

    [[nodiscard]] const arbor_match3_level &raw() const noexcept { return level_; }

private:
    Match3Level() noexcept = default;
    arbor_match3_level level_{};
};

/// A persona: the goal its search rewards and its formula in binary form
/// (`arbor_match3_persona`, 340 bytes, a value).
class Match3Persona {
public:
    /// Parses a persona file (`goal` and `formula` and/or `bytecode` lines). Throws `ParseError`.
    [[nodiscard]] static Match3Persona parse(std::string_view text) {
        Match3Persona persona;
        detail::parse_call<arbor_parse_error>("arbor_match3_persona_parse", [&](arbor_parse_error *error) {
            return arbor_match3_persona_parse(detail::text_data(text), text.size(), &persona.persona_, error);
        });
        return persona;
    }

    /// Bundled persona 0 MaxS, 1 MinS, 2 MaxM, 3 MinM (`ARBOR_MATCH3_SHIPPED_PERSONAS`).
    [[nodiscard]] static Match3Persona shipped(std::uint32_t index) {
        Match3Persona persona;
        check(arbor_match3_persona_shipped(index, &persona.persona_), "arbor_match3_persona_shipped");
        return persona;
    }

    [[nodiscard]] Match3Goal goal() const noexcept { return static_cast<Match3Goal>(persona_.goal); }
    /// The formula's binary form (`formula_size()` bytes).
    [[nodiscard]] const std::uint8_t *formula() const noexcept { return persona_.formula; }
    [[nodiscard]] std::size_t formula_size() const noexcept {
        return persona_.formula_len <= ARBOR_MATCH3_FORMULA_MAX_BYTES ? persona_.formula_len
                                                                      : ARBOR_MATCH3_FORMULA_MAX_BYTES;
    }
    [[nodiscard]] const arbor_match3_persona &raw() const noexcept { return persona_; }

private:
    Match3Persona() noexcept = default;
    arbor_match3_persona persona_{};
};

/// Who chooses the moves: `ARBOR_MATCH3_AGENT_RANDOM`, `_VANILLA` (MCTS with a goal) or
/// `_PERSONA` (MCTS with a goal and a formula). Holds a copy of the formula.
class Match3Agent {
public:
    [[nodiscard]] static Match3Agent random() { return Match3Agent(ARBOR_MATCH3_AGENT_RANDOM, Match3Goal::MaxS, {}); }
    [[nodiscard]] static Match3Agent vanilla(Match3Goal goal = Match3Goal::MaxS) {
        return Match3Agent(ARBOR_MATCH3_AGENT_VANILLA, goal, {});
    }
    [[nodiscard]] static Match3Agent persona(const Match3Persona &persona) {
        return Match3Agent(ARBOR_MATCH3_AGENT_PERSONA, persona.goal(),
                           std::vector<std::uint8_t>(persona.formula(), persona.formula() + persona.formula_size()));
    }
    /// A formula of `match3_formula_parse` with a goal.
    [[nodiscard]] static Match3Agent persona(Match3Goal goal, std::vector<std::uint8_t> formula) {
        return Match3Agent(ARBOR_MATCH3_AGENT_PERSONA, goal, std::move(formula));
    }

    [[nodiscard]] std::uint32_t kind() const noexcept { return kind_; }
    [[nodiscard]] std::uint32_t goal() const noexcept { return static_cast<std::uint32_t>(goal_); }
    [[nodiscard]] const std::uint8_t *formula() const noexcept { return formula_.empty() ? nullptr : formula_.data(); }
    [[nodiscard]] std::size_t formula_size() const noexcept { return formula_.size(); }

private:
    Match3Agent(std::uint32_t kind, Match3Goal goal, std::vector<std::uint8_t> formula)
        : kind_(kind), goal_(goal), formula_(std::move(formula)) {}
    std::uint32_t kind_;
    Match3Goal goal_;
    std::vector<std::uint8_t> formula_;
};

/// A Match-3 game: a value type holding `arbor_match3_game` (1,984 bytes: the level, the
/// chance seed and the moves played; copy it, save it).
class Match3Game {
public:
    /// A game of `level` with chance seed `seed`.
    [[nodiscard]] static Match3Game start(const Match3Level &level, std::uint64_t seed) {
        Match3Game game;
        check(arbor_match3_game_start(&level.raw(), seed, &game.game_), "arbor_match3_game_start");
        return game;
    }

    [[nodiscard]] static Match3Game from_raw(const arbor_match3_game &game) noexcept {
        Match3Game out;
        out.game_ = game;
        return out;
    }

    /// The legal move codes, increasing (none once the game is over).
    [[nodiscard]] std::vector<Match3Move> legal_moves() const {
        std::array<Match3Move, ARBOR_MATCH3_MAX_MOVES> moves{};
        std::size_t count = 0;
        check(arbor_match3_legal_moves(&game_, moves.data(), moves.size(), &count), "arbor_match3_legal_moves");
        return std::vector<Match3Move>(moves.begin(), moves.begin() + static_cast<std::ptrdiff_t>(count));
    }

    /// Plays `code`; what it did. Throws (`IllegalMove`, `GameOver`) and is then unchanged.
    arbor_match3_outcome play(Match3Move code) {
        arbor_match3_outcome outcome{};
        check(arbor_match3_play(&game_, code, &outcome), "arbor_match3_play");
        return outcome;
    }

    [[nodiscard]] arbor_match3_metrics metrics() const {
        arbor_match3_metrics metrics{};
        check(arbor_match3_game_metrics(&game_, &metrics), "arbor_match3_game_metrics");
        return metrics;
    }

    [[nodiscard]] bool over() const { return metrics().game_over != 0; }

    /// The move `agent` chooses after `iterations` iterations (its generator seeded with
    /// `seed`), its tree in `tree` (`Match3Level::tree_buffer`; an empty Buffer for Random).
    [[nodiscard]] Match3Move agent_move(const Match3Agent &agent, std::uint32_t iterations,
                                        std::uint64_t seed, Buffer &tree) const {
        Match3Move code = 0;
        check(arbor_match3_agent_move(&game_, agent.kind(), agent.goal(), agent.formula(),
                                      agent.formula_size(), iterations, seed, tree.data(), tree.size(), &code),
              "arbor_match3_agent_move");
        return code;
    }

    [[nodiscard]] const arbor_match3_game &raw() const noexcept { return game_; }

private:
    Match3Game() noexcept = default;
    arbor_match3_game game_{};
};

/// The anytime agent search of `arbor_match3_search_*`: owns its handle buffer (sized by
/// `arbor_match3_search_bytes`, aligned to `ARBOR_MATCH3_SEARCH_ALIGN`). Move-only.
/// Threads: as `BreakthroughSearch`: `cancel()` from any thread during a `run()`; nothing
/// else overlaps, and `cancel()` must not overlap construction, a move or destruction.
class Match3Search {
public:
    /// A search for `agent` in `game` (a game of `level`), sized so that `iterations`
    /// iterations since the start or the last `play` never fill the tree (past that it
    /// stops growing, which is no error), its generator seeded with `seed`.
    Match3Search(const Match3Level &level, const Match3Game &game, const Match3Agent &agent,
                 std::uint32_t iterations, std::uint64_t seed)
        : buffer_(Buffer::sized(ARBOR_MATCH3_SEARCH_ALIGN, arbor_match3_search_bytes, &level.raw(), iterations)) {
        check(arbor_match3_search_init(buffer_.data(), buffer_.size(), &game.raw(), agent.kind(),
                                       agent.goal(), agent.formula(), agent.formula_size(), seed),
              "arbor_match3_search_init");
    }

    Match3Search(Match3Search &&) noexcept = default;
    Match3Search &operator=(Match3Search &&) noexcept = default;

    /// Searches on until `limits` or a cancel stop it (Random: `StopReason::Done` at once).
    /// k runs of n iterations choose the move of one run of k·n.
    SearchProgress run(const SearchLimits &limits) {
        arbor_search_progress p{};
        check(arbor_match3_search_run(buffer_.data(), buffer_.size(), &limits.raw(), &p), "arbor_match3_search_run");
        return SearchProgress::from(p);
    }

    /// Stops a run in progress on another thread within one iteration (or the next run at
    /// once). Throws only for a moved-from object.
    void cancel() {
        check(arbor_match3_search_cancel(buffer_.data(), buffer_.size()), "arbor_match3_search_cancel");
    }

    /// Plays `code` in the handle's game, keeping its subtree.
    void play(Match3Move code) {
        check(arbor_match3_search_play(buffer_.data(), buffer_.size(), code), "arbor_match3_search_play");
    }

    /// The handle's game, with the moves played through `play`.
    [[nodiscard]] Match3Game game() {
        arbor_match3_game game{};
        check(arbor_match3_search_game(buffer_.data(), buffer_.size(), &game), "arbor_match3_search_game");
        return Match3Game::from_raw(game);
    }

    [[nodiscard]] const Buffer &buffer() const noexcept { return buffer_; }

private:
    Buffer buffer_;
};

/* ---- Match-3 playtests ---------------------------------------------------------------- */

/// The name of playtest agent `index` (0..5: "MaxS", "MinS", "MaxM", "MinM", "Vanilla",
/// "Random"), the order of the report's arrays.
[[nodiscard]] inline std::string match3_playtest_agent_format(std::uint32_t index) {
    return detail::text_out("arbor_match3_playtest_agent_format",
                            [&](char *buf, std::size_t len, std::size_t *out_len) {
                                return arbor_match3_playtest_agent_format(index, buf, len, out_len);
                            });
}

/// The paper's Table II on `level` in one call: `games` games for each of the six agents,
/// `iterations` per move, on the calling thread (its tree in a Buffer of this call).
[[nodiscard]] inline arbor_match3_playtest_report match3_playtest(const Match3Level &level, std::uint32_t games,
                                                                  std::uint64_t seed, std::uint32_t iterations) {
    Buffer tree = level.tree_buffer(iterations);
    arbor_match3_playtest_report report{};
    check(arbor_match3_playtest(&level.raw(), games, seed, iterations, tree.data(), tree.size(), &report),
          "arbor_match3_playtest");
    return report;
}

/// `arbor_match3_playtest_progress` with its stop reason as a `StopReason` (`Step`,
/// `Cancelled`, `Done`).
struct Match3PlaytestProgress {
    std::uint32_t games_done = 0;
    std::uint32_t games_total = 0;
    StopReason stop_reason = StopReason::None;
};

/// The same playtest in steps of one game, cancellable: owns its handle buffer (sized by
/// `arbor_match3_playtest_bytes`). Move-only; threads as `Match3Search` (`cancel()` from
/// any thread during a `step()`).
class Match3Playtest {
public:
    Match3Playtest(const Match3Level &level, std::uint32_t games, std::uint64_t seed, std::uint32_t iterations)
        : buffer_(Buffer::sized(ARBOR_MATCH3_PLAYTEST_ALIGN, arbor_match3_playtest_bytes, &level.raw(), iterations)) {
        check(arbor_match3_playtest_init(buffer_.data(), buffer_.size(), &level.raw(), games, seed, iterations),
              "arbor_match3_playtest_init");
    }

    Match3Playtest(Match3Playtest &&) noexcept = default;
    Match3Playtest &operator=(Match3Playtest &&) noexcept = default;

    /// Plays the next game (`Step`), gives it up on a cancel (`Cancelled`: the next step
    /// plays it again, to the same result), or says `Done`.
    Match3PlaytestProgress step() {
        arbor_match3_playtest_progress p{};
        check(arbor_match3_playtest_step(buffer_.data(), buffer_.size(), &p), "arbor_match3_playtest_step");
        Match3PlaytestProgress out;
        out.games_done = p.games_done;
        out.games_total = p.games_total;
        out.stop_reason = static_cast<StopReason>(p.stop_reason);
        return out;
    }

    void cancel() {
        check(arbor_match3_playtest_cancel(buffer_.data(), buffer_.size()), "arbor_match3_playtest_cancel");
    }

    /// The report of the games played so far (`match3_playtest`'s once every game is).
    [[nodiscard]] arbor_match3_playtest_report result() {
        arbor_match3_playtest_report report{};
        check(arbor_match3_playtest_result(buffer_.data(), buffer_.size(), &report), "arbor_match3_playtest_result");
        return report;
    }

private:
    Buffer buffer_;
};

/* ---- Go (src/ffi/go.rs, go_search.rs) ------------------------------------------------ */

/// A Go move code: `row * size + col` (A1 is 0), or `ARBOR_GO_PASS`.
using GoMove = std::uint32_t;

/// `arbor_go_game_check`'s reasons.
enum class GoLegality : std::uint32_t {
    Legal = ARBOR_GO_LEGAL,
    Occupied = ARBOR_GO_OCCUPIED,
    Suicide = ARBOR_GO_SUICIDE,
    Ko = ARBOR_GO_KO,
    Superko = ARBOR_GO_SUPERKO,
    Over = ARBOR_GO_OVER,
};

/// Parses a GTP move ("D4", "pass") on a `size` board. Throws `ParseError`.
[[nodiscard]] inline GoMove go_move_parse(std::uint32_t size, std::string_view text) {
    GoMove mv = 0;
    detail::parse_call<arbor_parse_error>("arbor_go_move_parse", [&](arbor_parse_error *error) {
        return arbor_go_move_parse(size, detail::text_data(text), text.size(), &mv, error);
    });
    return mv;
}

/// The GTP text of a move ("D4", "pass") on a `size` board.
[[nodiscard]] inline std::string go_move_format(std::uint32_t size, GoMove mv) {
    return detail::text_out("arbor_go_move_format",
                            [&](char *buf, std::size_t len, std::size_t *out_len) {
                                return arbor_go_move_format(size, mv, buf, len, out_len);
                            });
}

/// A Go game in its caller buffer (`arbor_go_game_*`): owns an aligned `Buffer`, freed by
/// the destructor. Move-only; `clone()` copies. A refused move throws `Error` and changes
/// nothing (`check()` says why).
class GoGame {
public:
    /// An empty `size` x `size` board (5..=19), Black to move, `komi` for White; the buffer
    /// holds any game up to `capacity_size` (from SGF), at least `size`.
    explicit GoGame(std::uint32_t size = 19, double komi = 7.5, std::uint32_t capacity_size = 0)
        : buffer_(Buffer::sized(ARBOR_GO_GAME_ALIGN, arbor_go_game_bytes,
                                capacity_size > size ? capacity_size : size)) {
        check(arbor_go_game_init(buffer_.data(), buffer_.size(), size, komi), "arbor_go_game_init");
    }

    /// A game read from SGF text (boards up to 19x19). Throws `ParseError`.
    [[nodiscard]] static GoGame parse_sgf(std::string_view text) {
        GoGame game(19, 0.0);
        game.sgf_parse(text);
        return game;
    }

    GoGame(GoGame &&) noexcept = default;
    GoGame &operator=(GoGame &&) noexcept = default;

    /// A copy (the buffer copied byte for byte: the same game).
    [[nodiscard]] GoGame clone() const {
        GoGame copy(Buffer(buffer_.size(), buffer_.alignment()));
        std::memcpy(copy.buffer_.data(), buffer_.data(), buffer_.size());
        return copy;
    }

    void set_komi(double komi) {
        check(arbor_go_game_set_komi(buffer_.data(), buffer_.size(), komi), "arbor_go_game_set_komi");
    }

    void play(GoMove mv) {
        check(arbor_go_game_play(buffer_.data(), buffer_.size(), mv), "arbor_go_game_play");
    }

    /// Plays a GTP move ("D4", "pass").
    void play(std::string_view gtp) { play(go_move_parse(info().size, gtp)); }

    void pass() { play(GoMove{ARBOR_GO_PASS}); }

    [[nodiscard]] GoLegality check_move(GoMove mv) {
        std::uint32_t reason = 0;
        check(arbor_go_game_check(buffer_.data(), buffer_.size(), mv, &reason), "arbor_go_game_check");
        return static_cast<GoLegality>(reason);
    }

    [[nodiscard]] std::vector<GoMove> legal_moves() {
        std::vector<GoMove> moves(ARBOR_GO_MAX_MOVES);
        std::size_t count = 0;
        check(arbor_go_game_legal_moves(buffer_.data(), buffer_.size(), moves.data(), moves.size(), &count),
              "arbor_go_game_legal_moves");
        moves.resize(count);
        return moves;
    }

    /// The points in code order: `ARBOR_GO_EMPTY`, `_BLACK` or `_WHITE`.
    [[nodiscard]] std::vector<std::uint8_t> board() {
        std::vector<std::uint8_t> points(ARBOR_GO_MAX_POINTS);
        std::size_t count = 0;
        check(arbor_go_game_board(buffer_.data(), buffer_.size(), points.data(), points.size(), &count),
              "arbor_go_game_board");
        points.resize(count);
        return points;
    }

    [[nodiscard]] arbor_go_info info() {
        arbor_go_info info{};
        check(arbor_go_game_info(buffer_.data(), buffer_.size(), &info), "arbor_go_game_info");
        return info;
    }

    void undo() { check(arbor_go_game_undo(buffer_.data(), buffer_.size()), "arbor_go_game_undo"); }

    /// The area score as the board stands (every stone alive).
    [[nodiscard]] arbor_go_score score() {
        arbor_go_score score{};
        check(arbor_go_game_score(buffer_.data(), buffer_.size(), &score), "arbor_go_game_score");
        return score;
    }

    /// The final area score (what GTP's `final_score` answers): dead stones removed, seki
    /// stones counted and their shared liberties not, judged from playouts drawn with `seed`.
    [[nodiscard]] arbor_go_score final_score(std::uint64_t seed = 1) {
        arbor_go_score score{};
        check(arbor_go_game_final_score(buffer_.data(), buffer_.size(), seed, &score),
              "arbor_go_game_final_score");
        return score;
    }

    /// The status of every point in code order (`ARBOR_GO_STATUS_EMPTY`, `_ALIVE`, `_DEAD`,
    /// `_SEKI`), judged as `final_score(seed)` judges it.
    [[nodiscard]] std::vector<std::uint8_t> final_status(std::uint64_t seed = 1) {
        std::vector<std::uint8_t> status(ARBOR_GO_MAX_POINTS);
        std::size_t count = 0;
        check(arbor_go_game_final_status(buffer_.data(), buffer_.size(), seed, status.data(),
                                         status.size(), &count),
              "arbor_go_game_final_status");
        status.resize(count);
        return status;
    }

    /// The board diagram.
    [[nodiscard]] std::string format() {
        return detail::text_out("arbor_go_game_format", [&](char *buf, std::size_t len, std::size_t *out_len) {
            return arbor_go_game_format(buffer_.data(), buffer_.size(), buf, len, out_len);
        });
    }

    /// Replaces the game by the SGF one. Throws `ParseError` (the game unchanged).
    void sgf_parse(std::string_view text) {
        detail::parse_call<arbor_parse_error>("arbor_go_game_sgf_parse", [&](arbor_parse_error *error) {
            return arbor_go_game_sgf_parse(buffer_.data(), buffer_.size(), detail::text_data(text),
                                           text.size(), error);
        });
    }

    [[nodiscard]] std::string sgf_format() {
        return detail::text_out("arbor_go_game_sgf_format",
                                [&](char *buf, std::size_t len, std::size_t *out_len) {
                                    return arbor_go_game_sgf_format(buffer_.data(), buffer_.size(), buf,
                                                                    len, out_len);
                                });
    }

    [[nodiscard]] Buffer &buffer() noexcept { return buffer_; }

private:
    explicit GoGame(Buffer buffer) noexcept : buffer_(std::move(buffer)) {}
    Buffer buffer_;
};

/// `arbor_go_search_init`'s player.
enum class GoPlayer : std::uint32_t { Light = ARBOR_GO_PLAYER_LIGHT, Mogo = ARBOR_GO_PLAYER_MOGO };

/// The anytime, cancellable Go search of `arbor_go_search_*`: owns the handle buffer (a copy
/// of the game, the tree). Move-only. Threads as `BreakthroughSearch`: `cancel()` may be
/// called from another thread while `run()` is in progress.
class GoSearch {
public:
    /// A search of a copy of `game`, its tree of `capacity_nodes` nodes per thread for runs of
    /// up to `threads` threads, all randomness from `seed`. Throws `Error`.
    GoSearch(GoGame &game, std::uint32_t capacity_nodes, std::uint64_t seed,
             GoPlayer player = GoPlayer::Mogo, std::uint32_t threads = 1)
        : buffer_(Buffer::sized(ARBOR_GO_SEARCH_ALIGN, arbor_go_search_bytes, game.info().size,
                                capacity_nodes, threads)) {
        check(arbor_go_search_init(buffer_.data(), buffer_.size(), game.buffer().data(),
                                   game.buffer().size(), static_cast<std::uint32_t>(player), seed),
              "arbor_go_search_init");
    }

    GoSearch(GoSearch &&) noexcept = default;
    GoSearch &operator=(GoSearch &&) noexcept = default;

    /// Grows the tree until `limits` or a cancel stops it; k runs of n iterations on one
    /// thread equal one run of k·n. `best_move` is a `GoMove`.
    SearchProgress run(const SearchLimits &limits, std::uint32_t threads = 1) {
        arbor_search_progress p{};
        check(arbor_go_search_run(buffer_.data(), buffer_.size(), &limits.raw(), threads, &p),
              "arbor_go_search_run");
        return SearchProgress::from(p);
    }

    /// Stops a run in progress on any thread (or the next run).
    void cancel() {
        check(arbor_go_search_cancel(buffer_.data(), buffer_.size()), "arbor_go_search_cancel");
    }

    /// What the player to move should do now (GTP `genmove`'s judgement of the tree: the
    /// move, or a resignation). Changes nothing.
    [[nodiscard]] arbor_go_decision decide() {
        arbor_go_decision decision{};
        check(arbor_go_search_decide(buffer_.data(), buffer_.size(), &decision),
              "arbor_go_search_decide");
        return decision;
    }

    /// Plays `mv` for the player to move, keeping its subtree (a stone after two passes
    /// resumes the game).
    void play(GoMove mv) {
        check(arbor_go_search_play(buffer_.data(), buffer_.size(), mv), "arbor_go_search_play");
    }

    /// Copies the handle's game into `game` (replacing its game).
    void game(GoGame &game) {
        check(arbor_go_search_game(buffer_.data(), buffer_.size(), game.buffer().data(),
                                   game.buffer().size()),
              "arbor_go_search_game");
    }

    [[nodiscard]] arbor_go_search_stats tree_stats() {
        arbor_go_search_stats stats{};
        check(arbor_go_search_tree_stats(buffer_.data(), buffer_.size(), &stats),
              "arbor_go_search_tree_stats");
        return stats;
    }

private:
    Buffer buffer_;
};

/* ---- Hold'em bot handle (src/ffi/holdem_bot.rs) ------------------------------------- */

/// A Hold'em bot kept in a handle buffer (`arbor_holdem_bot_*`): made once from a spec and a
/// seed (the seed replaces a `seed=` of the spec), asked for decisions, told when hands end.
/// Move-only. `cancel()` may be called from another thread while `decide()` is in progress.
class HoldemBot {
public:
    /// Throws `ParseError` for a bad spec, `Error` otherwise (a spec over
    /// `ARBOR_HOLDEM_BOT_SPEC_MAX` bytes).
    HoldemBot(std::string_view spec, std::uint64_t seed)
        : buffer_(Buffer::sized(ARBOR_HOLDEM_BOT_ALIGN, arbor_holdem_bot_bytes)) {
        detail::parse_call<arbor_parse_error>("arbor_holdem_bot_init", [&](arbor_parse_error *error) {
            return arbor_holdem_bot_init(buffer_.data(), buffer_.size(), detail::text_data(spec),
                                         spec.size(), seed, error);
        });
    }

    HoldemBot(HoldemBot &&) noexcept = default;
    HoldemBot &operator=(HoldemBot &&) noexcept = default;

    /// The action for the position to act in `hand`; `progress.best_move` is the action and
    /// `progress.stop_reason` says whether the bot decided (`Done`) or a cancel or a deadline
    /// passed before the call answered with the cheapest legal action.
    [[nodiscard]] HoldemAction decide(const HoldemHand &hand, const SearchLimits &limits,
                                      SearchProgress *progress = nullptr) {
        HoldemAction action = 0;
        arbor_search_progress p{};
        check(arbor_holdem_bot_decide(buffer_.data(), buffer_.size(), &hand.raw(), &limits.raw(),
                                      &action, &p),
              "arbor_holdem_bot_decide");
        if (progress != nullptr) *progress = SearchProgress::from(p);
        return action;
    }

    /// Tells the bot that `hand` (over) ended, seen as `position`.
    void hand_over(const HoldemHand &hand, std::uint32_t position) {
        check(arbor_holdem_bot_hand_over(buffer_.data(), buffer_.size(), &hand.raw(), position),
              "arbor_holdem_bot_hand_over");
    }

    /// Stops a decision in progress on any thread (or the next one).
    void cancel() {
        check(arbor_holdem_bot_cancel(buffer_.data(), buffer_.size()), "arbor_holdem_bot_cancel");
    }

private:
    Buffer buffer_;
};

} // namespace arbor

namespace std {
template <> struct is_error_code_enum<arbor::Status> : true_type {};
} // namespace std

#endif /* ARBOR_HPP */
