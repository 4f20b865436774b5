// The rollback sample: with any delays, both sides end as the lockstep run
// does; without delays nothing is rolled back.

#include <catch2/catch.hpp>

#include "rollback/rollback.hpp"

TEST_CASE("Both sides of a rollback session end as the lockstep run whatever the delays", "[sample][rollback]") {
    for (int d0 = 0; d0 <= 8; d0 += 2)
        for (int d1 = 1; d1 <= 9; d1 += 4) {
            INFO("delays " << d0 << " and " << d1);
            const rollback::Session s = rollback::RunSession(400, d0, d1);
            CHECK(s.equal);
            CHECK(s.rollbacks[0] > 0); // player 0 hears player 1 late: it guessed wrong some time
            if (d0 == 0) CHECK(s.rollbacks[1] == 0);
        }
}

TEST_CASE("A session without delays never rolls back", "[sample][rollback]") {
    const rollback::Session s = rollback::RunSession(300, 0, 0);
    CHECK(s.equal);
    CHECK(s.rollbacks[0] == 0);
    CHECK(s.rollbacks[1] == 0);
    CHECK(s.resimulated[0] == 0);
}
