// Must not compile: a typed event posted to an Ensemble's mailbox is kept in 64 bytes.
#include <tickfsm/tickfsm.hpp>

struct Bot {};
struct Frame {};
struct Big { char bytes[65] = {}; };

void Post(tickfsm::Ensemble<Bot, Frame>& team) {
    team.Post(0, Big{});
}
