#pragma once
// tickfsm: fixed-tick finite state machines for game characters.
// Umbrella header: include this one. The compile-time form is opt-in:
// #include <tickfsm/static_machine.hpp> for Transitions, StaticStateManager
// and StaticCrowd.

#include "actions.hpp"
#include "config_error.hpp"
#include "crowd.hpp"
#include "ensemble.hpp"
#include "event.hpp"
#include "input_buffer.hpp"
#include "instantiate.hpp"
#include "machine.hpp"
#include "observer.hpp"
#include "snapshot.hpp"
#include "state_manager.hpp"
#include "state_ref.hpp"
#include "trace.hpp"
