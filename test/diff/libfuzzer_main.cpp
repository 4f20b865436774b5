// libFuzzer target over the differential test's driver: the input bytes choose
// the seed of the random machine, its form and its length. A divergence aborts
// with the report (seed, configuration, calls). Built by -DTICKFSM_LIBFUZZER=ON
// with clang (scripts/fuzz.sh --libfuzzer SECONDS).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "driver.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const tickfsm_diff::RunOptions options = [] {
        tickfsm_diff::RunOptions o;
        o.features = tickfsm_diff::FeaturesFromEnvironment();
        return o;
    }();
    const tickfsm_diff::RunResult r = tickfsm_diff::RunBytes(data, size, options);
    if (r.diverged) {
        std::fprintf(stderr, "%s", r.report.c_str());
        std::abort();
    }
    return 0;
}
