// tickfsm_fuzz: the random differential test as a program.
//
//   tickfsm_fuzz --seconds 60              random machines for a minute
//   tickfsm_fuzz --seed 1234 --verbose     one machine, its whole trace on a divergence
//   options: --list (one line per divergence), --first-seed N, --ticks N (per machine), --off feature[,feature],
//            --form manager|crowd|static, --mutant last|noreset
// Prints machines, ticks, seconds and divergences; exits 1 on a divergence.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "driver.hpp"

using namespace tickfsm_diff;

int main(int argc, char** argv) {
    RunOptions options;
    options.features = FeaturesFromEnvironment();
    double seconds = 10;
    bool one_seed = false;
    bool list = false;
    std::uint64_t seed = 0;
    std::uint64_t first_seed = std::random_device{}();
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "tickfsm_fuzz: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--seed") {
            one_seed = true;
            seed = std::strtoull(value().c_str(), nullptr, 10);
        } else if (arg == "--seconds") {
            seconds = std::strtod(value().c_str(), nullptr);
        } else if (arg == "--first-seed") {
            first_seed = std::strtoull(value().c_str(), nullptr, 10);
        } else if (arg == "--ticks") {
            options.max_ticks = std::strtoull(value().c_str(), nullptr, 10);
        } else if (arg == "--list") {
            list = true; // one line per divergence
        } else if (arg == "--verbose") {
            options.verbose = true;
        } else if (arg == "--off") {
            if (!SwitchOff(options.features, value())) {
                std::fprintf(stderr, "tickfsm_fuzz: unknown feature in --off\n");
                return 2;
            }
        } else if (arg == "--form") {
            const std::string f = value();
            options.form = f == "manager" ? Form::Manager : f == "crowd" ? Form::Crowd : f == "static" ? Form::Static : Form::Auto;
        } else if (arg == "--mutant") {
            const std::string m = value();
            options.mutant = m == "last" ? Mutant::LastHolding : m == "noreset" ? Mutant::NoTickReset : Mutant::None;
        } else {
            std::fprintf(stderr, "usage: tickfsm_fuzz [--seconds S | --seed N] [--verbose] [--first-seed N] [--ticks N] "
                                 "[--off features] [--form manager|crowd|static] [--mutant last|noreset]\n");
            return 2;
        }
    }
    if (one_seed) {
        const RunResult r = RunSeed(seed, options);
        std::printf("seed %llu (%s): %llu ticks%s\n", static_cast<unsigned long long>(seed), r.form.c_str(),
                    static_cast<unsigned long long>(r.ticks),
                    r.ended_by_config_error ? ", ended by an expected ConfigError" : "");
        if (r.diverged) std::printf("%s", r.report.c_str());
        std::printf("machines 1, ticks %llu, divergences %d\n", static_cast<unsigned long long>(r.ticks),
                    r.diverged ? 1 : 0);
        return r.diverged ? 1 : 0;
    }
    std::printf("tickfsm_fuzz: seeds from %llu for %g s\n", static_cast<unsigned long long>(first_seed), seconds);
    const BudgetResult b = RunBudget(first_seed, 0, seconds, options, list ? 1000000 : 5);
    for (const RunResult& r : b.failures) {
        if (list) std::printf("%s\n", r.report.substr(0, r.report.find('\n')).c_str());
        else std::printf("%s\n", r.report.c_str());
    }
    std::printf("machines %llu, ticks %llu, seconds %.1f, divergences %llu (StateManager %llu, Crowd %llu, "
                "compile-time %llu; ended by an expected ConfigError %llu)\n",
                static_cast<unsigned long long>(b.machines), static_cast<unsigned long long>(b.ticks), b.seconds,
                static_cast<unsigned long long>(b.divergences), static_cast<unsigned long long>(b.by_form[1]),
                static_cast<unsigned long long>(b.by_form[2]), static_cast<unsigned long long>(b.by_form[3]),
                static_cast<unsigned long long>(b.config_errors));
    if (options.verbose) std::printf("coverage:\n%s", DescribeCoverage(b.coverage).c_str());
    return b.divergences ? 1 : 0;
}
