// The messages of the mistakes the typed code reports through an enum (a
// Crowd's, CrowdMistake), written here once rather than at each call site in
// the headers, which every file that uses a crowd compiles.

#include <tickfsm/config_error.hpp>
#include <tickfsm/detail/format.hpp>

namespace tickfsm::detail {

namespace {

std::string CrowdText(CrowdMistake mistake, const CrowdFacts& f) {
    switch (mistake) {
    case CrowdMistake::PrivateConfiguration:
        return Format("Crowd<{}>: its configuration is private to one machine: a condition that holds data (a "
                      "capturing lambda or a functor with members), an action built with arguments, or keyed or "
                      "delegate states; a crowd shares one table between all its characters, so use captureless "
                      "lambdas, functions or empty functors, Do<X>() without arguments and states named by type, "
                      "and reach per-character data through the controller",
                      f.manager);
    case CrowdMistake::NoInitialState:
        return Format("Crowd<{}>: its configuration has no initial state; call SetInitialState<S>() in its "
                      "constructor",
                      f.manager);
    case CrowdMistake::TickAllSizes:
        return Format("Crowd::TickAll: {} controllers and {} actions for {} characters", f.a, f.b, f.i);
    case CrowdMistake::TickAllControllers:
        return Format("Crowd::TickAll: {} controllers for {} characters", f.a, f.i);
    case CrowdMistake::TickAllInsideTickAll:
        return "Crowd::TickAll called from inside a hook or condition of the same crowd";
    case CrowdMistake::TickAllInsideCharacter:
        return Format("Crowd::TickAll called from inside a hook or condition of character {} of the same crowd",
                      f.i);
    case CrowdMistake::PerformInsideTickAll:
        return Format("Crowd::Perform({}) called from inside a hook or condition during TickAll of the same crowd",
                      f.i);
    case CrowdMistake::PerformInsideCharacter:
        return Format("Crowd::Perform({}) called from inside a hook or condition of that character", f.i);
    case CrowdMistake::AddWhileTicking:
        return "Crowd::Add called from inside a hook or condition (it would move the characters that are "
               "ticking); add between ticks";
    case CrowdMistake::ResetWhileTicking:
        return Format("Crowd::Reset({}) called from inside a hook or condition", f.i);
    case CrowdMistake::CallWhileTicking:
        return Format("Crowd::{} called from inside a hook or condition; call it between ticks", f.name);
    case CrowdMistake::SendEventWhileTicking:
        return Format("Crowd::SendEvent({}, {}) called from inside a hook or condition; {}", f.i, f.what, f.fix);
    case CrowdMistake::RevertWhileTicking:
        return Format("Crowd::RevertToPreviousState({}) called from inside a hook or condition; take a "
                      "tickfsm::Machine<Controller, Action>& as the hook's last parameter instead",
                      f.i);
    case CrowdMistake::NoPreviousState:
        return Format("Crowd<{}>::PreviousState({}) needs KeepPreviousState() in the configuration", f.manager,
                      f.i);
    case CrowdMistake::RevertNoPreviousState:
        return Format("Crowd<{}>::RevertToPreviousState({}) needs KeepPreviousState() in the configuration",
                      f.manager, f.i);
    case CrowdMistake::NotAState:
        return Format("Crowd::State<{}>(): {} is not a state of {}", f.name, f.name, f.manager);
    case CrowdMistake::NoCharacter:
        return Format("Crowd<{}>::{}({}): no character {}: the crowd has {} characters", f.manager, f.name, f.i,
                      f.i, f.a);
    }
    return "Crowd: an unknown mistake";
}

} // namespace

void FailCrowd(CrowdMistake mistake, const CrowdFacts& facts) {
    ReportConfigError(KindMessage(facts.character, CrowdText(mistake, facts)));
}

} // namespace tickfsm::detail
