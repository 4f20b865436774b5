// Catch2 main, compiled once into tickfsm_catch_main and shared by all tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
