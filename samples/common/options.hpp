#pragma once
// What a sample's command line asks for: with no argument, its scripted run;
// with --dot or --mermaid, the picture of its machine printed instead (exit
// 0); with --validate, what tickfsm::Validate finds in it; with --help, its
// usage. One function reads the arguments, so that a new option is one more
// case there.

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tickfsm/describe.hpp>

namespace samples {

/// What to print instead of the run, if anything.
enum class Show { Run, Dot, Mermaid, Findings, Help };

/// Prints a sample's usage to `out`.
inline void PrintUsage(std::FILE* out, std::string_view sample) {
    std::fprintf(out,
                 "usage: %.*s [--dot | --mermaid | --validate] [--trace FILE] [--coverage]\n"
                 "  (no option)   the scripted run\n"
                 "  --dot         the machine as a Graphviz digraph\n"
                 "  --mermaid     the machine as a Mermaid stateDiagram-v2\n"
                 "  --validate    what tickfsm::Validate finds in it\n"
                 "  --trace FILE  also write the run's timeline (Chrome trace JSON) to FILE\n"
                 "  --coverage    also print which transitions the run fired\n",
                 static_cast<int>(sample.size()), sample.data());
}

/// A sample's command line, read.
struct Options {
    std::string_view sample; // the sample's name: the title of its picture
    Show show = Show::Run;
    bool bad = false;        // an argument not understood (the usage went to stderr): exit 2
};

/// Reads `argv`: --dot, --mermaid, --validate, --help (the last one given wins);
/// --trace FILE and --coverage are let through for the timeline's helper.
inline Options ParseOptions(std::string_view sample, int argc, char** argv) {
    Options options;
    options.sample = sample;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--dot") options.show = Show::Dot;
        else if (arg == "--mermaid") options.show = Show::Mermaid;
        else if (arg == "--validate") options.show = Show::Findings;
        else if (arg == "--help" || arg == "-h") options.show = Show::Help;
        else if (arg == "--coverage") continue; // the timeline's options, read by their own helper
        else if (arg == "--trace") ++i;         // and its FILE
        else {
            std::fprintf(stderr, "%.*s: unknown argument '%.*s'\n", static_cast<int>(sample.size()), sample.data(),
                         static_cast<int>(arg.size()), arg.data());
            PrintUsage(stderr, sample);
            options.bad = true;
        }
    }
    return options;
}

/// Prints `machines` as asked (one picture holding them all, or each one's
/// findings); returns main's exit code. Call it while the machines live: their
/// descriptions name states through them.
inline int PrintMachines(const Options& options, std::vector<tickfsm::Description> machines) {
    if (machines.size() == 1 && machines[0].name.empty()) machines[0].name = std::string(options.sample);
    std::string text;
    switch (options.show) {
    case Show::Dot: text = tickfsm::WriteDot(machines); break;
    case Show::Mermaid: text = tickfsm::WriteMermaid(machines); break;
    case Show::Findings:
        for (const tickfsm::Description& machine : machines)
            for (const tickfsm::Finding& f : tickfsm::Validate(machine))
                text += machine.name + ": " + std::string(tickfsm::FindingKindName(f.kind)) + ": " + f.message + "\n";
        if (text.empty()) text = std::string(options.sample) + ": Validate() finds nothing\n";
        break;
    case Show::Help: PrintUsage(stdout, options.sample); return 0;
    case Show::Run: break;
    }
    std::fputs(text.c_str(), stdout);
    return 0;
}

} // namespace samples
