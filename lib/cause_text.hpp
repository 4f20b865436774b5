#pragma once
// Why a transition happened, as TracePrinter's causes show it ("condition 1",
// "event Jump", "push"): shared by the timeline and the testing kit. Private
// to lib/ (formats with fmt).

#include <string>

#include <tickfsm/detail/format.hpp>
#include <tickfsm/observer.hpp>

#include "fmt_text.hpp"

namespace tickfsm::detail {

/// The kind of cause alone: "initial", "condition", "event", ...
inline const char* CauseName(Cause cause) noexcept {
    switch (cause) {
    case Cause::Initial: return "initial";
    case Cause::Condition: return "condition";
    case Cause::Event: return "event";
    case Cause::Request: return "request";
    case Cause::Direct: return "direct";
    case Cause::Push: return "push";
    case Cause::Pop: return "pop";
    }
    return "direct";
}

/// "condition 1", "condition 0 of Combat" (a parent's or FromAny()'s list),
/// "event Jump", or the kind of cause alone.
inline std::string CauseText(const TransitionInfo& info) {
    if (info.cause == Cause::Condition) {
        if (info.owner.empty() || info.owner == info.from) return fmt::format("condition {}", info.condition);
        return fmt::format("condition {} of {}", info.condition, info.owner);
    }
    if (info.cause == Cause::Event && info.event) return fmt::format("event {}", EventText(*info.event));
    return CauseName(info.cause);
}

} // namespace tickfsm::detail
