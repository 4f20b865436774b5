#pragma once
// Text of errors and traces, written and formatted once in lib/ (fmt is a
// private dependency of the compiled library): a header names the message
// (Message) and hands over its arguments as MessageArg values, so no user's
// translation unit includes fmt or holds the text of a message.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>

#include "../text.hpp"

namespace tickfsm {
struct Event;
} // namespace tickfsm

namespace tickfsm::detail {

/// One argument of a message: text, an integer or a real number. It refers to
/// the text it was given, which must outlive the call it is passed to.
struct MessageArg {
    enum class Kind : std::uint8_t { Text, Signed, Unsigned, Real, Float };

    MessageArg(std::string_view s) noexcept : kind(Kind::Text), text(s) {}
    /// Any text that views as a std::string_view (a Text, a std::string).
    template <class String>
        requires(ViewsAsText<String> && !std::is_convertible_v<const String&, const char*>)
    MessageArg(const String& s) noexcept : kind(Kind::Text), text(std::string_view(s)) {}
    MessageArg(const char* s) noexcept : kind(Kind::Text), text(s) {}
    template <std::signed_integral T>
    MessageArg(T v) noexcept : kind(Kind::Signed), signed_value(v) {}
    template <std::unsigned_integral T>
        requires(!std::same_as<T, bool>)
    MessageArg(T v) noexcept : kind(Kind::Unsigned), unsigned_value(v) {}
    /// A float prints as the float it is ("0.016"), not as the double it widens to.
    MessageArg(float v) noexcept : kind(Kind::Float), float_value(v) {}
    template <std::floating_point T>
        requires(!std::same_as<T, float>)
    MessageArg(T v) noexcept : kind(Kind::Real), real_value(static_cast<double>(v)) {}

    Kind kind;
    union {
        std::string_view text;
        long long signed_value;
        unsigned long long unsigned_value;
        double real_value;
        float float_value;
    };
};

/// Every message the headers report, and the call names they show; each
/// text is written once, in lib/messages.cpp, in fmt's syntax (`{}` for each
/// argument in order).
enum class Message : std::uint8_t {
    FromOnToCall,
    FromOnTypedCall,
    FromDoCall,
    ActionArguments,
    KeyEnumName,
    KeyEnumValue,
    KeyValue,
    InitialStateTwice,
    EventTransitionTwice,
    PushCapacityTwice,
    EventTransitionTwiceShared,
    NoStateUnderKey,
    KeyedFromToCall,
    KeyedFromOnToCall,
    KeyedEventTransitionTwice,
    KeyedFromDoCall,
    SendEventInsideHook,
    SendTypedEventInsideHook,
    SetObserverInsideHook,
    ResetInsideHook,
    NotAStateOfMachine,
    ChangeInsideHookTo,
    ChangeInsideHook,
    CallInsideHook,
    RestoreGlobalOutOfRange,
    AddStateCall,
    AddStateKeyTwice,
    KeyedStateClass,
    KeyedStateDelegate,
    TaggedStateDelegate,
    DelegateHookCall,
    AddDelegateKeyCall,
    AddDelegateKeyTwice,
    AddDelegateTagCall,
    AddDelegateTagTwice,
    KeyedSetInitialCall,
    KeyedInitialStateTwice,
    KeyedFromCall,
    KeyedSetTerminalCall,
    KeyedSetSubstatesCall,
    KeyedSubstatesEmpty,
    KeyedSetRegionsCall,
    KeyedRegionsEmpty,
    KeyedSetHistoryCall,
    CurrentKeyNone,
    WouldTransitionInsideHook,
    GlobalNotAState,
    GlobalNested,
    StateNeverConfigured,
    SetSubstatesCall,
    SetRegionsCall,
    SetHistoryCall,
    SetPassThroughCall,
    SetPushCapacityCall,
    SetTerminalCall,
    DeclareEventCall,
    TooManyStates,
    StateNameTwice,
    StateNameEmpty,
    StateNameSeparator,
    StateManagerName,
    EnsembleAddTwice,
    EnsembleMailboxFull,
    EnsembleNoMachine,
    EnsembleAddInTick,
    EnsemblePerformInTick,
    NoStateUnderKeyInHook,
    SetStateNotAState,
    EnterWithArgumentsFromOwnHook,
    ChangeFromExitHook,
    SendEventFromExitHook,
    NextStateInRegion,
    FixedDtInvalid,
    BufferTimeoutInvalid,
    StateIdOutOfRange,
    MachineTypes,
    FormAndTypes,
    StaticManagerInsideHook,
    PerformCall,
    TickAllActions,
    ResetCall,
    RemoveCall,
    TickAllByStateControllers,
    StaticCrowdNoCharacter,
    TickAllControllers,
    StaticCrowdInsideTickAll,
    StaticCrowdInsideCharacter,
    StaticCrowdSize,
    StaticCrowdRefused,
    RevertNeedsPreviousState,
    RestoreCrowdLayout,
    RestoreStateOutOfRange,
    InitializeInsideHook,
    GlobalSetInsideHook,
    GlobalClearInsideHook,
    PreviousNeedsKeep,
};

/// The text of message `id` with `args` filled in (lib/messages.cpp).
Text VMessageText(Message id, std::initializer_list<MessageArg> args);

/// MessageText(Message::FixedDtInvalid, dt): the arguments are text, integers or reals.
template <class... Args>
Text MessageText(Message id, const Args&... args) {
    return VMessageText(id, {MessageArg(args)...});
}

/// The ending of a count's noun in a message: "s" unless there is one.
inline const char* PluralEnding(std::size_t count) noexcept { return count == 1 ? "" : "s"; }

/// "tickfsm: <kind>: <what>": the message of a mistake made with a kind of
/// machine, named as its table names it ("StateManager<Hero, Pad>").
Text KindMessage(std::string_view kind, std::string_view what);

/// The mistakes a Crowd reports (crowd.hpp). Their messages are written
/// once, in lib/messages.cpp, and filled in from CrowdFacts.
enum class CrowdMistake : std::uint8_t {
    PrivateConfiguration,  // the kind's configuration is private to one machine
    NoInitialState,        // the kind has no initial state
    GlobalState,           // the kind's manager sets a global state
    TickAllSizes,          // TickAll(controllers, actions): a + b for i characters
    TickAllControllers,    // TickAll(controllers, ...): a controllers for i characters
    TickAllInsideTickAll,  // TickAll from a hook during TickAll
    TickAllInsideCharacter, // TickAll from a hook of character i
    PerformInsideTickAll,  // Perform(i) from a hook during TickAll
    PerformInsideCharacter, // Perform(i) from a hook of character i
    AddWhileTicking,       // Add() from a hook
    ResetWhileTicking,     // Reset(i) from a hook
    RemoveInsideTickAll,   // Remove(i) during TickAll
    RemoveWhileTicking,    // Remove(i) from a hook of character a
    CallWhileTicking,      // `name` from a hook
    SendEventWhileTicking, // SendEvent(i, what) from a hook of character i
    CallInsideTickAll,     // `name`(i[, what]) during TickAll
    RevertWhileTicking,    // RevertToPreviousState(i) from a hook
    NoPreviousState,       // PreviousState(i) without KeepPreviousState()
    RevertNoPreviousState, // RevertToPreviousState(i) without KeepPreviousState()
    NotAState,             // State<name>(): not a state of the kind
    NoCharacter,           // `name`(i) with i >= a, the crowd's size
    SnapshotRefused,       // Save or Restore refused: `what` says why ("Restore(): ...")
};
/// What a crowd's message names (see CrowdMistake).
struct CrowdFacts {
    std::string_view character = {}; // the table's name of the kind ("StateManager<Ant, Scent>")
    std::string_view manager = {};   // the StateManager subclass the crowd is of
    std::string_view name = {};      // an API or a state
    std::string_view what = {};
    std::size_t i = 0;
    std::size_t a = 0;
    std::size_t b = 0;
};
/// Reports a crowd's mistake as a ConfigError (lib/messages.cpp).
[[noreturn]] void FailCrowd(CrowdMistake mistake, const CrowdFacts& facts);

/// An event as messages and traces show it: "Jump", "Hit::Obstacle", or
/// "Hit(300)" for an enum value without a name.
Text EventText(const Event& event);

} // namespace tickfsm::detail
