#pragma once
// The random differential test's driver: builds a random machine from a seed,
// drives the same random calls through the library (a StateManager, a Crowd of
// several characters, or a compile-time machine) and the reference model, and
// compares the hook log and every query after every call.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "diff_common.hpp"

namespace tickfsm_diff {

enum class Form : std::uint8_t { Auto, Manager, Crowd, Static };

struct RunOptions {
    Features features;
    Mutant mutant = Mutant::None;
    Form form = Form::Auto;           // Auto: chosen by the seed
    std::uint64_t max_ticks = 1500;   // per machine (a crowd counts each character's tick)
    bool verbose = false;             // print the whole trace, not only the last calls
};

struct RunResult {
    std::uint64_t seed = 0;
    std::uint64_t ticks = 0;
    bool diverged = false;
    bool ended_by_config_error = false; // both sides threw ConfigError where expected
    std::string form;
    int shares_table = -1;              // a StateManager's SharesTable() (-1: not a StateManager)
    std::string report;                 // on divergence: configuration, trace, difference
};

/// One random machine.
RunResult RunSeed(std::uint64_t seed, const RunOptions& options);

struct BudgetResult {
    std::uint64_t machines = 0;
    std::uint64_t ticks = 0;
    std::uint64_t divergences = 0;
    std::uint64_t config_errors = 0;
    std::uint64_t by_form[4] = {};      // [1] StateManager, [2] Crowd, [3] compile-time machines
    std::uint64_t shared_tables = 0;    // StateManagers whose table is shared
    std::uint64_t private_tables = 0;   // and private
    double seconds = 0;
    Coverage coverage{};                // what the machines reached (see Cov)
    std::vector<RunResult> failures; // the first few
};

/// Random machines from `first_seed` on until `min_ticks` ticks ran (or
/// `max_seconds` passed, if positive and min_ticks is 0).
BudgetResult RunBudget(std::uint64_t first_seed, std::uint64_t min_ticks, double max_seconds,
                       const RunOptions& options, std::size_t keep_failures = 3);

/// One line per kind of coverage: "  count  name".
std::string DescribeCoverage(const Coverage& coverage);

/// libFuzzer: the bytes choose the seed, the form and the length.
RunResult RunBytes(const std::uint8_t* data, std::size_t size, const RunOptions& options);

/// Features switched off by the environment (TICKFSM_DIFF_OFF=name,name) or a
/// command line (--off name): global_before_start, args_deferred, would_next,
/// global_exit_error, global_self_arg, crowd_previous, time_double, saturation,
/// static_machines. Returns false for an unknown name.
bool SwitchOff(Features& features, const std::string& names);
Features FeaturesFromEnvironment();

} // namespace tickfsm_diff
