// Runs the game module (module.cpp), which links tickfsm into a shared library.
extern "C" int RunModule();

int main() { return RunModule(); }
