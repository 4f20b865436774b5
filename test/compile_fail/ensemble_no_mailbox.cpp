// Must not compile: an Ensemble whose mailboxes hold no event would refuse every Post.
#include <tickfsm/tickfsm.hpp>

struct Bot {};
struct Frame {};

void Tick(tickfsm::Ensemble<Bot, Frame, 0>& team) {
    team.Perform({});
}
