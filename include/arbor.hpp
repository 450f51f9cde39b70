/*
 * arbor.hpp: a thin, header-only C++17 layer over arbor's C ABI (arbor.h).
 *
 * Hand-written (arbor.h is generated; this file is not). It adds no state and no policy:
 * every function calls the C function of the same name and converts.
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
 * std::string. Caller buffers: arbor::Buffer (aligned allocation, freed by its destructor).
 *
 * Coverage: the parts of the ABI that are final at 1.0 (statuses, versions, build
 * information, cards and hands). The places for Breakthrough, Match-3 and the search
 * buffers are marked "EXTENSION POINT" below.
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
#include <cstddef>
#include <cstdint>
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

/* ---- EXTENSION POINT: Breakthrough (branch abi-breakthrough) -------------------------
 * When the Breakthrough area is at 1.0 on main, add here, each a few lines over arbor.h:
 *   class Breakthrough      value type holding an arbor_breakthrough (copyable: the struct
 *                           is memcpy-safe): static initial(), static parse(string_view)
 *                           through detail::parse_call<arbor_parse_error>, format() through
 *                           detail::text_out, legal_moves() -> std::vector<std::uint16_t>
 *                           (ARBOR_BREAKTHROUGH_MAX_MOVES), play(move), status(), hash().
 *   move_parse / move_format  as card_parse / card_format.
 *   solve(...)              the solver with its table in a Buffer::sized(ARBOR_…_ALIGN,
 *                           arbor_…_bytes, …).
 *   class BreakthroughSearch  the MCTS handle (later): owns a Buffer prepared by its _init.
 * -------------------------------------------------------------------------------------- */

/* ---- EXTENSION POINT: Match-3 and playtests (branch abi-match3) ----------------------
 *   class Level / Game / Persona  value types over arbor_match3_level / _game / _persona
 *                           (magic+version structs: copyable), parse via parse_call, format
 *                           via text_out; legal_moves, play, metrics, agent moves.
 *   playtest(...)           returning arbor_match3_playtest_report.
 * -------------------------------------------------------------------------------------- */

/* ---- EXTENSION POINT: anytime search (src/ffi/search.rs, branch abi-match3) ----------
 *   class Search            owns the search buffer (Buffer::sized with the area's _bytes
 *                           and ARBOR_…_ALIGN), prepared by _init; step/run/best/stats;
 *                           cancel() is callable from another thread (the C ABI allows it).
 * -------------------------------------------------------------------------------------- */

} // namespace arbor

namespace std {
template <> struct is_error_code_enum<arbor::Status> : true_type {};
} // namespace std

#endif /* ARBOR_HPP */
