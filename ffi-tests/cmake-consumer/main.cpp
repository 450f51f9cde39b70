// A C++ program using arbor through arbor.hpp, built by ffi-tests/cmake-consumer.
#include <arbor.hpp>

#include <cstdio>

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
        std::printf("card_parse(\"Zz\"): %s\n", e.what());
    }
#if defined(ARBOR_CONSUMER_STATIC)
    const char *linkage = "static";
#else
    const char *linkage = "shared";
#endif
    const bool ok = v.major == 1 && royal == 7462 &&
                    arbor::hand_category(royal) == arbor::HandCategory::StraightFlush;
    std::printf("arbor %u.%u.%u (%s): royal flush rank %u: %s\n", v.major, v.minor, v.patch,
                linkage, unsigned{royal}, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
