#pragma once
// What every sample shares: lines printed into a console string, and the
// self-check that expected lines appear in order.

#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace samples {

/// Appends one formatted line to `console`.
template <class... Args>
void PrintLine(std::string& console, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(console), format, std::forward<Args>(args)...);
    console.push_back('\n');
}

/// Appends one formatted line to `console`, prefixed with the tick: "tick  7  ...".
template <class... Args>
void PrintTickLine(std::string& console, int tick, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(console), "tick {:2}  ", tick);
    PrintLine(console, format, std::forward<Args>(args)...);
}

/// The part of a sample's controller that prints: the game loop's clock and
/// everything the run prints, in order.
struct TickConsole {
    int tick = 0;        // the game loop's clock, for the printed lines
    std::string console; // everything the run prints, in order

    template <class... Args>
    void Print(fmt::format_string<Args...> format, Args&&... args) {
        PrintTickLine(console, tick, format, std::forward<Args>(args)...);
    }
};

/// Checks that lines appear in `output` in the order asked (other lines may
/// come between); the first that does not is reported on stderr.
class InOrder {
public:
    InOrder(std::string_view sample, const std::string& output) : sample_(sample), output_(output) {}

    bool Follows(std::string_view line) {
        const std::size_t found = output_.find(line, at_);
        if (found == std::string::npos) {
            std::fprintf(stderr, "%.*s: expected, after what came before: '%.*s'\n", static_cast<int>(sample_.size()),
                         sample_.data(), static_cast<int>(line.size()), line.data());
            return false;
        }
        at_ = found + line.size();
        return true;
    }

    template <class Lines>
    bool FollowAll(const Lines& lines) {
        for (std::string_view line : lines)
            if (!Follows(line)) return false;
        return true;
    }

private:
    std::string_view sample_;
    const std::string& output_;
    std::size_t at_ = 0;
};

} // namespace samples
