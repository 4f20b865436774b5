#pragma once
// The command-line options every sample answers to look at its run:
//   --trace FILE  writes a timeline of the run (Chrome trace event JSON, for
//                 Perfetto or chrome://tracing; docs/timeline.md)
//   --coverage    prints which transitions of the machines the run fired
// A sample's main makes a TraceOption from its arguments and hands its
// Watch() to the run; the run attaches its machines with Observe and tells
// the clock with Tick. Other arguments are left to other helpers.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tickfsm/observer_list.hpp>
#include <tickfsm/testing.hpp>
#include <tickfsm/timeline.hpp>

namespace samples {

/// What a run lets look at beside its printed trace: a timeline, a coverage
/// count (either may be null).
class Watch {
public:
    tickfsm::TimelineWriter* timeline = nullptr;                  // --trace FILE
    tickfsm::testing::TransitionCoverage* coverage = nullptr;     // --coverage

    /// Attaches `printed` (the sample's own trace, or null), the timeline and
    /// the coverage to `machine` under `name` (a literal: it must outlive the machine).
    template <class Manager>
    void Attach(Manager& machine, std::string_view name, tickfsm::Observer* printed) {
        auto& list = *lists_.emplace_back(std::make_unique<tickfsm::ObserverList>());
        if (printed) list.Add(*printed);
        if (timeline) {
            timeline->AddStates(name, machine.States());
            list.Add(*timeline);
        }
        if (coverage) {
            coverage->Track(machine, name);
            list.Add(*coverage);
        }
        machine.SetObserver(&list, name);
    }

    /// The run's clock: what is heard next happens on `tick`.
    void Tick(std::int64_t tick) {
        if (timeline) timeline->SetTick(static_cast<std::uint64_t>(tick < 0 ? 0 : tick));
    }

private:
    std::vector<std::unique_ptr<tickfsm::ObserverList>> lists_;
};

/// Attaches `printed` and what `watch` holds (if not null) to `machine`.
template <class Manager>
void Observe(Watch* watch, Manager& machine, std::string_view name, tickfsm::Observer* printed) {
    if (watch) watch->Attach(machine, name, printed);
    else if (printed) machine.SetObserver(printed, name);
}

/// Tells `watch` (if not null) the run's clock.
inline void Tick(Watch* watch, std::int64_t tick) {
    if (watch) watch->Tick(tick);
}

/// --trace FILE and --coverage, read from the command line. The timeline is
/// written and the coverage printed when the option goes out of scope (at the
/// end of main, whatever the self-check found).
class TraceOption {
public:
    /// Reads `argv`; a --trace without a file, or a file that cannot be
    /// written, ends the program with exit code 2.
    TraceOption(int argc, char** argv) : program_(argc > 0 ? argv[0] : "sample") {
        if (const std::size_t slash = program_.find_last_of('/'); slash != std::string::npos)
            program_.erase(0, slash + 1);
        for (int i = 1; i < argc; ++i) {
            const std::string_view arg = argv[i];
            if (arg == "--coverage") {
                coverage_ = std::make_unique<tickfsm::testing::TransitionCoverage>();
                watch_.coverage = coverage_.get();
            } else if (arg == "--trace") {
                if (i + 1 >= argc) Fail("--trace needs a file name");
                file_ = std::fopen(argv[++i], "w");
                if (!file_) Fail(std::string("cannot write ") + argv[i]);
                timeline_ = std::make_unique<tickfsm::TimelineWriter>(file_);
                watch_.timeline = timeline_.get();
            }
        }
    }
    ~TraceOption() {
        if (timeline_) {
            timeline_->Finish();
            std::fclose(file_);
        }
        if (coverage_)
            std::printf("transition coverage of %s's run:\n%s", program_.c_str(), coverage_->Table().c_str());
    }
    TraceOption(const TraceOption&) = delete;
    TraceOption& operator=(const TraceOption&) = delete;

    /// What the run should attach its machines to: null when neither option was given.
    Watch* Get() noexcept { return timeline_ || coverage_ ? &watch_ : nullptr; }

private:
    [[noreturn]] static void Fail(const std::string& why) {
        std::fprintf(stderr, "%s\n", why.c_str());
        std::exit(2);
    }

    std::string program_;
    std::FILE* file_ = nullptr;
    std::unique_ptr<tickfsm::TimelineWriter> timeline_;
    std::unique_ptr<tickfsm::testing::TransitionCoverage> coverage_;
    Watch watch_;
};

} // namespace samples
