// The random differential test in CTest: random machines driven through the
// library and through the reference model (test/diff/reference_model.cpp) must
// log the same hooks and answer every query the same after every call.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include "driver.hpp"

using namespace tickfsm_diff;

namespace {

// Ticks per run: 3,000,000 in the normal build (about 5 s; at least 1,000,000
// is the goal), 1,000,000 in ASan+UBSan builds (TICKFSM_SANITIZE, about 15 s),
// unless TICKFSM_DIFF_TICKS says otherwise.
std::uint64_t TickBudget() {
    if (const char* env = std::getenv("TICKFSM_DIFF_TICKS")) return std::strtoull(env, nullptr, 10);
#ifdef TICKFSM_DIFF_SANITIZED
    return 1000000;
#else
    return 3000000;
#endif
}

std::uint64_t FirstSeed() {
    if (const char* env = std::getenv("TICKFSM_DIFF_SEED")) return std::strtoull(env, nullptr, 10);
    return 1;
}

} // namespace

TEST_CASE("random machines tick as the reference model says", "[diff]") {
    RunOptions options;
    options.features = FeaturesFromEnvironment();
    const BudgetResult b = RunBudget(FirstSeed(), TickBudget(), 0, options);
    INFO(b.machines << " machines, " << b.ticks << " ticks in " << b.seconds << " s (StateManager "
                    << b.by_form[1] << ", Crowd " << b.by_form[2] << ", compile-time " << b.by_form[3]
                    << "), ended by an expected ConfigError " << b.config_errors << ", shared tables "
                    << b.shared_tables << ", private " << b.private_tables);
    // One line for the record, on success too (ctest -V, or the binary run alone).
    std::printf("DIFF machines=%llu ticks=%llu seconds=%.1f manager=%llu crowd=%llu compile_time=%llu divergences=%llu\n",
                static_cast<unsigned long long>(b.machines), static_cast<unsigned long long>(b.ticks), b.seconds,
                static_cast<unsigned long long>(b.by_form[1]), static_cast<unsigned long long>(b.by_form[2]),
                static_cast<unsigned long long>(b.by_form[3]), static_cast<unsigned long long>(b.divergences));
    for (const RunResult& r : b.failures) UNSCOPED_INFO(r.report);
    INFO("coverage:\n" << DescribeCoverage(b.coverage));
    // Every kind of event the generator aims at was reached (see Cov), in a full budget.
    for (std::size_t i = 0; i < b.coverage.size() && b.ticks >= 1000000; ++i) {
        INFO(kCovNames[i]);
        CHECK(b.coverage[i] > 0);
    }
    CHECK(b.ticks >= TickBudget());
    CHECK(b.by_form[1] > 0);
    CHECK(b.by_form[2] > 0);
    CHECK(b.by_form[3] > 0);
    CHECK(b.shared_tables > 0);
    CHECK(b.private_tables > 0);
    CHECK(b.config_errors > 0);
    REQUIRE(b.divergences == 0);
}

TEST_CASE("a seed runs the same way twice, so its report reproduces", "[diff]") {
    RunOptions options;
    options.features = FeaturesFromEnvironment();
    options.mutant = Mutant::LastHolding; // something to report
    for (std::uint64_t seed = 1; seed < 400; ++seed) {
        const RunResult first = RunSeed(seed, options);
        const RunResult second = RunSeed(seed, options);
        REQUIRE(first.ticks == second.ticks);
        REQUIRE(first.diverged == second.diverged);
        REQUIRE(first.report == second.report);
        if (first.diverged) {
            CHECK(first.report.find("tickfsm_fuzz --seed " + std::to_string(seed) + " --verbose") != std::string::npos);
            CHECK(first.report.find("calls (") != std::string::npos);
            return;
        }
    }
    FAIL("no seed diverged with the wrong reference");
}

namespace {
std::uint64_t SeedsUntilCaught(Mutant mutant) {
    RunOptions options;
    options.features = FeaturesFromEnvironment();
    options.mutant = mutant;
    options.max_ticks = 500;
    for (std::uint64_t seed = 1; seed <= 300; ++seed)
        if (RunSeed(seed, options).diverged) return seed;
    return 0;
}
} // namespace

TEST_CASE("the test fails against a reference that fires the last holding transition", "[diff][mutant]") {
    REQUIRE(SeedsUntilCaught(Mutant::LastHolding) != 0);
}

TEST_CASE("the test fails against a reference that keeps the ticks on re-entry", "[diff][mutant]") {
    REQUIRE(SeedsUntilCaught(Mutant::NoTickReset) != 0);
}
